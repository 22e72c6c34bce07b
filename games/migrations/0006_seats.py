"""Seats instead of red and black (issue 13): a game knows its game, variant
and player count, and its players sit in Seat rows, so that a game may have
two seats or four. Clocks and points become {seat: value} on the game row.

Existing games (all Ace in the Hole, two players) get seat 0 "red" and seat 1
"black" with their users and presence stamps, and their clocks, points and
rematch offer carried over; tests/games/test_seats_migration.py checks it on a
database of old games, both ways.
"""

from django.conf import settings
from django.db import migrations, models
import django.db.models.deletion

SEATS = ("red", "black")
BATCH = 2000


def to_seats(apps, schema_editor):
    Game, Seat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    games = Game.objects.order_by("pk").iterator(chunk_size=BATCH)
    seats, changed = [], []
    for game in games:
        for number, name in enumerate(SEATS):
            seats.append(Seat(game_id=game.pk, number=number, name=name,
                              user_id=getattr(game, f"{name}_id"),
                              seen_at=getattr(game, f"{name}_seen_at"), left_at=getattr(game, f"{name}_left_at")))
        game.clocks = {name: getattr(game, f"{name}_clock_ms") for name in SEATS}
        if game.red_score is not None:
            game.score = {name: getattr(game, f"{name}_score") or 0 for name in SEATS}
        game.rematch_offers = [game.rematch_offered_by] if game.rematch_offered_by else []
        changed.append(game)
        if len(changed) >= BATCH:
            _flush(Game, Seat, changed, seats)
    _flush(Game, Seat, changed, seats)


def _flush(Game, Seat, changed, seats):
    Seat.objects.bulk_create(seats)
    Game.objects.bulk_update(changed, ["clocks", "score", "rematch_offers"])
    changed.clear()
    seats.clear()


def to_red_and_black(apps, schema_editor):
    """Back to red and black, for games of two seats; a four-seat game cannot
    go back, so going back with one refuses rather than lose it."""
    Game, Seat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    if Game.objects.exclude(kind="ace-in-the-hole").exists():
        raise RuntimeError("games other than Ace in the Hole cannot be kept without seats: delete them first")
    by_game = {}
    for seat in Seat.objects.order_by("game_id", "number").iterator(chunk_size=BATCH):
        by_game.setdefault(seat.game_id, {})[seat.name] = seat
    changed = []
    for game in Game.objects.order_by("pk").iterator(chunk_size=BATCH):
        seats = by_game[game.pk]
        for name in SEATS:
            setattr(game, f"{name}_id", seats[name].user_id)
            setattr(game, f"{name}_seen_at", seats[name].seen_at)
            setattr(game, f"{name}_left_at", seats[name].left_at)
            setattr(game, f"{name}_clock_ms", game.clocks[name])
            setattr(game, f"{name}_score", (game.score or {}).get(name))
        game.rematch_offered_by = (game.rematch_offers or [""])[0]
        changed.append(game)
    fields = [field for name in SEATS
              for field in (name, f"{name}_seen_at", f"{name}_left_at", f"{name}_clock_ms", f"{name}_score")]
    Game.objects.bulk_update(changed, [*fields, "rematch_offered_by"], batch_size=BATCH)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_tournament_events'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='game', name='kind',
            field=models.CharField(choices=[('ace-in-the-hole', 'Ace in the Hole'), ('rhombus', 'Rhombus')],
                                   default='ace-in-the-hole', max_length=24),
        ),
        migrations.AddField(model_name='game', name='variant',
                            field=models.CharField(default='classic', max_length=16)),
        migrations.AddField(model_name='game', name='players',
                            field=models.PositiveSmallIntegerField(default=2)),
        migrations.AddField(model_name='game', name='clocks', field=models.JSONField(default=dict)),
        migrations.AddField(model_name='game', name='score', field=models.JSONField(blank=True, null=True)),
        migrations.AddField(model_name='game', name='rematch_offers',
                            field=models.JSONField(blank=True, default=list)),
        migrations.AlterField(model_name='game', name='winner',
                              field=models.CharField(blank=True, max_length=16)),
        migrations.AlterField(
            model_name='game', name='reason',
            field=models.CharField(blank=True, max_length=12, choices=[
                ('aces', 'by aces (R15)'), ('points', 'on points (R16)'),
                ('resignation', 'by resignation (R17)'), ('time', 'on time (R17)'),
                ('abandonment', 'by abandonment (R17)'), ('aborted', 'aborted (R17)'),
                ('no-pieces', 'no piece left on the board (RH25)'), ('no-action', 'no legal action (RH26)'),
                ('quiet', 'drawn by the quiet rule (RH27)'), ('formation', 'by a Formation (RH43)'),
                ('no-show', 'by forfeit: no-show'), ('adjudication', 'by adjudication')]),
        ),
        migrations.AlterField(model_name='move', name='seat', field=models.CharField(max_length=8)),
        migrations.AlterField(model_name='move', name='action', field=models.CharField(max_length=160)),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('name', models.CharField(max_length=8)),
                ('seen_at', models.DateTimeField(blank=True, null=True)),
                ('left_at', models.DateTimeField(blank=True, null=True)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats',
                                           to='games.game')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats',
                                           to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['game', 'number'],
                'indexes': [models.Index(fields=['user', 'game'], name='seat_user_game_idx')],
                'constraints': [
                    models.UniqueConstraint(fields=('game', 'number'), name='seat_number_once'),
                    models.UniqueConstraint(fields=('game', 'name'), name='seat_name_once'),
                    models.UniqueConstraint(fields=('game', 'user'), name='seat_one_per_player'),
                ],
            },
        ),
        # Nullable before they go, so that going back can re-add them to old
        # rows and fill them (to_red_and_black) before they are required again.
        migrations.AlterField(model_name='game', name='red', field=models.ForeignKey(
            null=True, on_delete=django.db.models.deletion.PROTECT, related_name='games_as_red',
            to=settings.AUTH_USER_MODEL)),
        migrations.AlterField(model_name='game', name='black', field=models.ForeignKey(
            null=True, on_delete=django.db.models.deletion.PROTECT, related_name='games_as_black',
            to=settings.AUTH_USER_MODEL)),
        migrations.AlterField(model_name='game', name='red_clock_ms', field=models.BigIntegerField(null=True)),
        migrations.AlterField(model_name='game', name='black_clock_ms', field=models.BigIntegerField(null=True)),
        migrations.RunPython(to_seats, to_red_and_black, elidable=False),
        migrations.RemoveConstraint(model_name='game', name='game_players_differ'),
        migrations.RemoveField(model_name='game', name='red'),
        migrations.RemoveField(model_name='game', name='black'),
        migrations.RemoveField(model_name='game', name='red_clock_ms'),
        migrations.RemoveField(model_name='game', name='black_clock_ms'),
        migrations.RemoveField(model_name='game', name='red_score'),
        migrations.RemoveField(model_name='game', name='black_score'),
        migrations.RemoveField(model_name='game', name='red_seen_at'),
        migrations.RemoveField(model_name='game', name='black_seen_at'),
        migrations.RemoveField(model_name='game', name='red_left_at'),
        migrations.RemoveField(model_name='game', name='black_left_at'),
        migrations.RemoveField(model_name='game', name='rematch_offered_by'),
    ]

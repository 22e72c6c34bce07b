"""Issue 37's acts: abort a game, correct a rating (the ladder and the new
rating), lift or shorten a playban, each with its permission."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_live_ratings'),
        ('moderation', '0006_moderators_moderate_chat'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='moderationaction',
            options={'ordering': ['-created', '-pk'], 'permissions': [('restrict_account', 'Can restrict an account from rated games or the lobby'), ('close_account', 'Can close or reopen an account'), ('adjudicate_game', "Can adjudicate a game's result"), ('undo_rating', "Can undo a game's rating effect"), ('refund_rating', 'Can refund rating points taken by an offender'), ('lift_restriction', 'Can lift a restriction'), ('moderate_chat', 'Can time players out of chat, remove lines and lock rooms'), ('abort_game', 'Can abort a running game'), ('correct_rating', "Can correct a player's rating"), ('lift_playban', 'Can lift or shorten a playban')]},
        ),
        migrations.AddField(
            model_name='moderationaction',
            name='ladder',
            field=models.CharField(blank=True, choices=[('ace-in-the-hole', 'Ace in the Hole'), ('rhombus', 'Rhombus'), ('rhombus-teams', 'Rhombus, teams')], help_text='Rating correction: the ladder.', max_length=24),
        ),
        migrations.AddField(
            model_name='moderationaction',
            name='rating',
            field=models.PositiveIntegerField(blank=True, help_text='Rating correction: the new rating.', null=True),
        ),
        migrations.AlterField(
            model_name='moderationaction',
            name='game',
            field=models.ForeignKey(blank=True, help_text='For adjudicating, aborting or undoing one game.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.game'),
        ),
        migrations.AlterField(
            model_name='moderationaction',
            name='kind',
            field=models.CharField(choices=[('restrict_rated', 'Restrict from rated games'), ('restrict_lobby', 'Restrict from seeks, challenges and quick pairing'), ('close_account', 'Close the account'), ('adjudicate', "Adjudicate a game's result"), ('undo_rating', "Undo a game's rating effect"), ('refund', 'Refund the points the offender took from opponents'), ('lift_rated', 'Lift a restriction from rated games'), ('lift_lobby', 'Lift a restriction from seeks, challenges and pairing'), ('reopen_account', 'Reopen a closed account'), ('chat_timeout', 'Time out of chat'), ('chat_remove', 'Remove a chat line'), ('chat_clear', "Clear the account's chat lines of the last day"), ('chat_lock', 'Open a chat room to established accounts only'), ('abort_game', 'Abort a game'), ('correct_rating', 'Correct a rating'), ('lift_playban', 'Lift or shorten a playban')], max_length=16),
        ),
        migrations.AlterField(
            model_name='moderationaction',
            name='until',
            field=models.DateTimeField(blank=True, help_text="Refund: the period's end (empty: now). Playban: its new end (empty: lift it now).", null=True),
        ),
    ]

""""A correspondence clock is about to run out" (games/reminders.py): once per
game at 24 h and once at 1 h before the mover's clock ends, for games of more
than a day a move; by e-mail if chosen, on the site (and by push) through
notify.notices.send; recorded so that nothing goes twice."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail as outbox
from django.utils import timezone

from games import reminders, starting
from games.models import Game
from notify.models import Notification, Sent
from preferences.languages import save_language
from tests.notify.mails import at, choose, correspondence, game_links, hours
from tests.notify.playing import move

pytestmark = [pytest.mark.django_db]

START = at(20, 12)  # a 3-day turn that started then ends at 23 Nov, 12:00


@pytest.fixture(autouse=True)
def site(settings: Any) -> None:
    settings.SITE_URL = "https://aceweb.example"


def warn(now: Any) -> int:
    return reminders.send_clock_warnings(now)


def test_the_mover_is_warned_once_at_24_hours_and_once_at_1_hour(alice: Any, bob: Any) -> None:
    choose(alice, "clock", email=True)
    game = correspondence(alice, bob, turn_started=START)
    assert warn(at(22, 11)) == 0  # 25 hours left
    assert [warn(at(22, 12, 1)), warn(at(22, 13)), warn(at(22, 20))] == [1, 0, 0]
    assert warn(at(23, 10, 59)) == 0  # 61 minutes left
    assert [warn(at(23, 11, 1)), warn(at(23, 11, 30))] == [1, 0]
    assert warn(at(23, 12, 1)) == 0  # run out: the game ends on time, not our business
    assert [m.subject for m in outbox.outbox] == ["Less than a day left on your clock",
                                                   "Less than an hour left on your clock"]
    assert all(game_links(m) == [f"https://aceweb.example/games/{game.pk}/"] for m in outbox.outbox)
    assert "against bob" in outbox.outbox[0].body
    assert outbox.outbox[0].extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # On the site: one notice about the game, the latest replacing the unread one.
    [notice] = Notification.objects.filter(user=alice, kind="clock")
    assert (notice.key, notice.url, notice.params["hours"]) == (f"game:{game.pk}", f"/games/{game.pk}/", 1)
    assert not Notification.objects.filter(user=bob).exists()


def test_first_seen_with_less_than_an_hour_only_the_hour_warning_goes(alice: Any, bob: Any) -> None:
    choose(alice, "clock", email=True)
    correspondence(alice, bob, turn_started=START)
    assert warn(at(23, 11, 30)) == 1
    assert warn(at(23, 11, 40)) == 0
    assert [m.subject for m in outbox.outbox] == ["Less than an hour left on your clock"]
    assert Sent.objects.filter(user=alice, kind="clock").count() == 2  # the overtaken 24 h one is never sent


def test_games_of_one_day_a_move_and_real_time_games_get_no_warning(alice: Any, bob: Any) -> None:
    choose(alice, "clock", email=True)
    correspondence(alice, bob, days=1, turn_started=at(23, 0))
    starting.start_game(alice, bob)
    assert warn(at(23, 23, 30)) == 0
    assert outbox.outbox == [] and not Notification.objects.exists()


def test_without_choosing_e_mail_the_warning_is_on_the_site_only(alice: Any, bob: Any) -> None:
    correspondence(alice, bob, turn_started=START)
    assert warn(at(22, 13)) == 1
    assert outbox.outbox == []
    assert Notification.objects.filter(user=alice, kind="clock").count() == 1


def test_each_channel_can_be_turned_off(alice: Any, bob: Any) -> None:
    choose(alice, "clock", site=False, email=False, push=False)
    correspondence(alice, bob, turn_started=START)
    warn(at(22, 13))
    assert outbox.outbox == [] and not Notification.objects.exists()


def test_a_player_short_of_time_again_on_a_later_turn_is_warned_again(alice: Any, bob: Any, mail_sink: Any) -> None:
    """Once per game, seat, turn and threshold (issue 35, 14), not once per game. Through real SMTP."""
    choose(alice, "clock", email=True)
    game = correspondence(alice, bob)
    now = timezone.now()
    for turn in range(2):  # alice's turns: plies 0 and 2
        Game.objects.filter(pk=game.pk).update(turn_started_at=now - hours(3 * 24 - 5))  # 5 hours left
        assert [warn(now), warn(now + hours(1))] == [1, 0], f"turn {turn}"
        move(game.pk, alice)  # in time; then bob, whose clock is full
        Game.objects.filter(pk=game.pk).update(turn_started_at=now)
        assert warn(now) == 0
        move(game.pk, bob)
    mails = [mail_sink.messages.get(timeout=5) for _ in range(2)]
    assert [(m["To"], m["Subject"]) for m in mails] == [("alice@example.org", "Less than a day left on your clock")] * 2
    assert mail_sink.messages.empty()
    assert Sent.objects.filter(user=alice, kind="clock").count() == 2


def test_the_records_of_old_warnings_are_dropped_after_a_week_by_the_hourly_digest_run(
        alice: Any, settings: Any) -> None:
    """One record per turn now: each guards only a turn that ends within a day of it."""
    settings.TURN_DIGEST_HOUR = 7
    for day in (10, 25):
        record = Sent.objects.create(user=alice, kind="clock", key=f"game:1:{day}red:24h")
        Sent.objects.filter(pk=record.pk).update(created=at(day, 8))
    reminders.send_turn_digests(at(26, 8))
    assert list(Sent.objects.values_list("key", flat=True)) == ["game:1:25red:24h"]


def test_the_warning_speaks_the_players_language(alice: Any, bob: Any) -> None:
    save_language(alice, "de")
    choose(alice, "clock", email=True)
    correspondence(alice, bob, turn_started=START)
    warn(at(22, 13))
    [message] = outbox.outbox
    assert message.subject == "Weniger als ein Tag übrig auf deiner Uhr"
    assert "gegen bob" in message.body


def test_finding_the_clocks_running_out_takes_the_same_queries_for_1_game_or_10(
        alice: Any, bob: Any, django_assert_num_queries: Any) -> None:
    correspondence(alice, bob, turn_started=START)
    with django_assert_num_queries(3) as few:  # the games, their seats, their players
        assert len(reminders.clocks_running_out(at(22, 13))) == 1
    for _ in range(9):
        correspondence(bob, alice, turn_started=START)
    with django_assert_num_queries(len(few.captured_queries)):
        assert len(reminders.clocks_running_out(at(22, 13))) == 10

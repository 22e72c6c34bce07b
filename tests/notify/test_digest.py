"""The daily correspondence digest by e-mail (games/reminders.py, notify/mail.py):
opt-in, the games where it is the player's move and only those, at most one a
day, in the player's language, with a working unsubscribe header."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail as outbox
from django.test import Client

from games import reminders, starting
from games.models import Game
from notify.models import Sent
from preferences.languages import save_language
from tests.notify.mails import at, choose, correspondence, game_links

pytestmark = [pytest.mark.django_db]


def send(day: int = 26, hour: int = 8) -> int:
    return reminders.send_turn_digests(at(day, hour))


@pytest.fixture(autouse=True)
def from_seven(settings: Any) -> None:
    settings.TURN_DIGEST_HOUR = 7
    settings.SITE_URL = "https://aceweb.example"


def test_the_digest_lists_exactly_the_games_where_it_is_the_players_move(
        alice: Any, bob: Any, charlie: Any) -> None:
    choose(alice, "turn", email=True)
    mine = [correspondence(alice, bob), correspondence(alice, charlie, days=7)]
    correspondence(bob, alice)  # bob's move
    finished = correspondence(alice, charlie)
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    starting.start_game(alice, bob)  # real time: never in a digest
    assert send() == 1
    [message] = outbox.outbox
    assert message.to == ["alice@example.org"]
    assert message.subject == "It's your turn in 2 games"
    assert sorted(game_links(message)) == sorted(f"https://aceweb.example/games/{g.pk}/" for g in mine)
    assert "against bob" in message.body and "against charlie" in message.body
    html = message.alternatives[0][0]
    assert all(f'href="https://aceweb.example/games/{g.pk}/"' in html for g in mine)


def test_one_game_is_said_in_the_singular(alice: Any, bob: Any) -> None:
    choose(alice, "turn", email=True)
    correspondence(alice, bob)
    send()
    assert outbox.outbox[0].subject == "It's your turn in 1 game"


def test_a_team_game_names_the_other_side_not_the_partner(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    choose(alice, "turn", email=True)
    correspondence(alice, bob, charlie, dave, setup=starting.Setup("rhombus"))  # SW+NE against SE+NW (RH31)
    send()
    [message] = outbox.outbox
    assert "Rhombus, 4 players, against bob, dave" in message.body


def test_no_digest_when_no_game_waits(alice: Any, bob: Any) -> None:
    choose(alice, "turn", email=True)
    correspondence(bob, alice)
    assert send() == 0
    assert outbox.outbox == []


def test_no_digest_without_choosing_it(alice: Any, bob: Any) -> None:
    correspondence(alice, bob)  # e-mail is opt-in: off by default
    choose(bob, "turn", email=False, site=True)
    correspondence(bob, alice)
    assert send() == 0
    assert outbox.outbox == []


def test_at_most_one_digest_a_day(alice: Any, bob: Any, charlie: Any) -> None:
    choose(alice, "turn", email=True)
    correspondence(alice, bob)
    assert (send(26, 8), send(26, 9), send(26, 23)) == (1, 0, 0)
    correspondence(alice, charlie)
    assert send(27, 8) == 1
    assert [m.subject for m in outbox.outbox] == ["It's your turn in 1 game", "It's your turn in 2 games"]
    assert Sent.objects.filter(user=alice, kind="turn").count() == 2  # recorded: a restart sends no other


def test_the_digest_waits_for_its_hour(alice: Any, bob: Any) -> None:
    choose(alice, "turn", email=True)
    correspondence(alice, bob)
    assert send(26, 6) == 0
    assert send(26, 7) == 1


@pytest.mark.parametrize(("language", "subject", "words"), [
    ("de", "Du bist in 2 Partien am Zug", "gegen bob"),
    ("es", "Es tu turno en 2 partidas", "contra bob"),
    ("ru", "Ваш ход в 2 партиях", "против bob"),
])
def test_the_digest_speaks_the_players_language(
        alice: Any, bob: Any, charlie: Any, language: str, subject: str, words: str) -> None:
    save_language(alice, language)
    choose(alice, "turn", email=True)
    correspondence(alice, bob)
    correspondence(alice, charlie)
    send()
    [message] = outbox.outbox
    assert message.subject == subject
    assert words in message.body


def test_the_digest_carries_a_one_click_unsubscribe_that_works_signed_out(alice: Any, bob: Any) -> None:
    choose(alice, "turn", email=True)
    correspondence(alice, bob)
    send()
    [message] = outbox.outbox
    header = message.extra_headers["List-Unsubscribe"]
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = header.strip("<>")
    assert link in message.body
    # What a mail program does (RFC 8058): a POST without cookies or CSRF token.
    response = Client(enforce_csrf_checks=True).post(link.removeprefix("https://aceweb.example"),
                                                     {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert send(27, 8) == 0


def test_the_records_of_old_digests_are_dropped_after_a_week(alice: Any) -> None:
    for day in (10, 25):
        record = Sent.objects.create(user=alice, kind="turn", key=f"digest:2026-11-{day}")
        Sent.objects.filter(pk=record.pk).update(created=at(day, 8))
    send(26, 8)
    assert list(Sent.objects.values_list("key", flat=True)) == ["digest:2026-11-25"]


def test_finding_the_waiting_games_takes_the_same_queries_for_2_games_or_12(
        alice: Any, bob: Any, charlie: Any, django_assert_num_queries: Any) -> None:
    correspondence(alice, bob)
    correspondence(charlie, alice)
    with django_assert_num_queries(4) as few:  # the movers, their games, the seats, the players
        assert sum(map(len, reminders.turns_waiting([alice.pk, charlie.pk]).values())) == 2
    for _ in range(5):
        correspondence(alice, bob)
        correspondence(charlie, bob)
    with django_assert_num_queries(len(few.captured_queries)):
        assert sum(map(len, reminders.turns_waiting([alice.pk, charlie.pk]).values())) == 12

"""Every check a line goes through (chat.lines.post, issue 25): a refused line
stores nothing and says why; flood, repeats, links, timeouts, locked rooms,
presets, the abuse score and muting."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from django.utils.translation import override

from chat import lines, shutup
from chat.lines import Refused, Speaker
from chat.models import ChatTimeout, Line
from games import starting
from games.starting import Setup

pytestmark = pytest.mark.django_db
ROOM = "game:1"


def refused(code: str, room: str = ROOM, **line: Any) -> Refused:
    speaker = line.pop("speaker")
    before = list(Line.objects.values_list("pk", flat=True))
    with pytest.raises(Refused) as refusal:
        lines.post(room, speaker, **line)
    assert refusal.value.code == code
    assert list(Line.objects.values_list("pk", flat=True)) == before  # nothing stored
    return refusal.value


def test_a_line_is_stored_cleaned(alice: Any) -> None:
    line = lines.post(ROOM, Speaker(alice), text="  good\ngame\u200b ")
    assert (line.room, line.author, line.text, line.preset) == (ROOM, alice, "good game", "")
    assert [lines.shown_text(shown) for shown in lines.recent_lines(ROOM)] == ["good game"]


def test_empty_and_too_long_lines_are_refused(alice: Any) -> None:
    refused("empty", speaker=Speaker(alice), text=" \u200b\n")
    refusal = refused("too-long", speaker=Speaker(alice), text="x" * 141)
    assert "140" in str(refusal) and "141" in str(refusal)
    assert lines.post(ROOM, Speaker(alice), text="x" * 140).text == "x" * 140


def test_links_need_an_established_account_and_never_a_bot(alice: Any) -> None:
    refused("link", speaker=Speaker(alice), text="see example.com")
    refused("link", speaker=Speaker(alice, established=True, bot=True), text="see example.com")
    assert lines.post(ROOM, Speaker(alice, established=True), text="see example.com").text == "see example.com"


def test_five_lines_in_ten_seconds_then_no_more(alice: Any) -> None:
    start = timezone.now()
    for second, text in enumerate(["hello", "nice opening", "oops", "that hurt", "your move"]):
        lines.post(ROOM, Speaker(alice), text=text, now=start + timedelta(seconds=second))
    refused("flood", speaker=Speaker(alice), text="one too many", now=start + timedelta(seconds=9))
    assert lines.post(ROOM, Speaker(alice), text="later on", now=start + timedelta(seconds=10.5))


def test_a_line_nearly_the_same_as_one_of_the_last_two_is_refused_but_presets_repeat(alice: Any) -> None:
    start = timezone.now()
    lines.post(ROOM, Speaker(alice), text="good game", now=start)
    lines.post(ROOM, Speaker(alice), text="thanks for playing", now=start + timedelta(seconds=3))
    refused("repeat", speaker=Speaker(alice), text="Good game!", now=start + timedelta(seconds=6))
    lines.post(ROOM, Speaker(alice), preset="goodgame", now=start + timedelta(seconds=7))
    lines.post(ROOM, Speaker(alice), preset="goodgame", now=start + timedelta(seconds=8))
    # Two lines later, the first may be said again.
    assert lines.post(ROOM, Speaker(alice), text="good game", now=start + timedelta(seconds=20))


def test_a_greeting_may_be_said_again_in_another_room_or_a_minute_later(alice: Any) -> None:
    """Issue 35: "Привет, удачи!" in one game, then in the next, was refused as a repeat
    minutes later; the near-repeat check is one room's, for REPEAT_SECONDS."""
    start = timezone.now()
    lines.post(ROOM, Speaker(alice), text="Привет, удачи!", now=start)
    assert lines.post("game:2", Speaker(alice), text="Привет, удачи!", now=start + timedelta(seconds=5))
    refused("repeat", speaker=Speaker(alice), text="привет, удачи", now=start + timedelta(seconds=30))
    later = start + timedelta(seconds=lines.REPEAT_SECONDS + 1)
    assert lines.post(ROOM, Speaker(alice), text="Привет, удачи!", now=later)


def test_a_team_games_own_room_takes_its_players_presets_only_and_names_the_rule(
        alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    game = starting.start_game(alice, bob, charlie, dave, setup=Setup("rhombus"))
    own = f"game:{game.pk}"
    refusal = refused("presets-only", room=own, speaker=Speaker(alice), text="good luck")
    assert "RH36" in str(refusal) and "until it is over" in str(refusal)
    line = lines.post(own, Speaker(alice), preset="goodluck")
    assert (line.text, line.preset) == ("", "goodluck")
    refused("preset", room=own, speaker=Speaker(alice), preset="my-hand-is-JH")


@pytest.mark.parametrize("language, said", [
    ("en", "Good luck"), ("de", "Viel Glück"), ("es", "Buena suerte"), ("ru", "Удачи"),
])
def test_a_preset_reads_in_the_readers_language(alice: Any, language: str, said: str) -> None:
    line = lines.post(ROOM, Speaker(alice), preset="goodluck")
    with override(language):
        assert lines.shown_text(line) == said


def test_a_timed_out_player_is_told_why_and_until_when(alice: Any, bob: Any) -> None:
    now = timezone.now()
    timeout = lines.time_out(alice, bob, ChatTimeout.Reason.SPAM, 15, now=now)
    with override("de"):
        refusal = refused("timeout", speaker=Speaker(alice), text="hello", now=now + timedelta(minutes=1))
    assert "Chat" in str(refusal) and str(timeout.ends.year) in str(refusal)
    refused("timeout", speaker=Speaker(alice), preset="hello", now=now + timedelta(minutes=1))
    assert lines.post(ROOM, Speaker(alice), text="hello", now=now + timedelta(minutes=16))


def test_a_locked_room_takes_only_established_accounts(alice: Any, bob: Any) -> None:
    lock = lines.lock_room(ROOM, bob, 60)
    assert str(lock.ends.year) in str(refused("locked", speaker=Speaker(alice), text="hello"))  # until when
    assert lines.post("game:2", Speaker(alice), text="hello")  # only that room
    assert lines.post(ROOM, Speaker(alice, established=True), text="hello there")
    assert lines.post(ROOM, Speaker(alice), preset="hello")  # presets carry nothing


def test_three_insults_report_the_author_once(alice: Any) -> None:
    reports: list[dict[str, Any]] = []
    lines.abuse_found.connect(lambda **kwargs: reports.append(kwargs), weak=False, dispatch_uid="t3")
    try:
        start = timezone.now()
        for second, text in enumerate(["you idiot", "good move", "du Depp", "пошёл ты, дебил", "noob"]):
            lines.post(ROOM, Speaker(alice), text=text, now=start + timedelta(seconds=3 * second))
    finally:
        lines.abuse_found.disconnect(dispatch_uid="t3")
    assert len(reports) == 1  # when the third insult came, not again at the fourth
    assert [line.text for line in reports[0]["lines"]] == ["пошёл ты, дебил", "du Depp", "you idiot"]
    assert reports[0]["author"] == alice and not reports[0]["critical"]


def test_a_critical_word_reports_at_once(alice: Any) -> None:
    reports: list[dict[str, Any]] = []
    lines.abuse_found.connect(lambda **kwargs: reports.append(kwargs), weak=False, dispatch_uid="tc")
    try:
        line = lines.post(ROOM, Speaker(alice), text="kys")
    finally:
        lines.abuse_found.disconnect(dispatch_uid="tc")
    assert line.weight == shutup.CRITICAL
    assert [(report["critical"], report["lines"]) for report in reports] == [(True, [line])]


def test_muted_authors_vanish_for_the_reader_in_every_room(alice: Any, bob: Any, charlie: Any) -> None:
    for room in (ROOM, "tournament:1"):
        lines.post(room, Speaker(alice), text=f"alice in {room}")
        lines.post(room, Speaker(bob), text=f"bob in {room}")
    lines.mute(charlie, alice)
    assert lines.mutes(charlie, alice) and not lines.mutes(alice, charlie)
    for room in (ROOM, "tournament:1"):
        assert [line.author for line in lines.recent_lines(room, charlie)] == [bob]
        assert [line.author for line in lines.recent_lines(room, bob)] == [alice, bob]
    lines.unmute(charlie, alice)
    assert [line.author for line in lines.recent_lines(ROOM, charlie)] == [alice, bob]


def test_removed_and_cleared_lines_read_as_removed(alice: Any, bob: Any) -> None:
    first = lines.post(ROOM, Speaker(alice), text="first thing")
    lines.post("tournament:3", Speaker(alice), text="second thing")
    kept = lines.post(ROOM, Speaker(bob), text="bob's line")
    assert [line.pk for line in lines.remove([first.pk])] == [first.pk]
    assert lines.remove([first.pk]) == []  # already removed
    assert len(lines.clear(alice)) == 1  # the other room's line
    shown = {line.pk: lines.shown_text(line) for line in Line.objects.all()}
    assert shown[kept.pk] == "bob's line"
    assert sorted(shown.values()) == ["bob's line", "removed by a moderator", "removed by a moderator"]


def test_a_room_shows_its_last_hundred_lines_oldest_first(alice: Any, bob: Any) -> None:
    start = timezone.now() - timedelta(hours=1)
    Line.objects.bulk_create(Line(room=ROOM, author=alice, text=f"line {n}", created=start) for n in range(105))
    shown = lines.recent_lines(ROOM, bob)
    assert [line.text for line in shown] == [f"line {n}" for n in range(5, 105)]

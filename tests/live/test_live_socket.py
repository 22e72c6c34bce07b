"""The live-games socket over a real daphne: the list, TV and following, live
(games/watch.py, docs/protocol.md "The live-games socket")."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games import finishing, payloads, starting
from games.models import Game
from relation import follows
from tests.live.conftest import move
from tests.raw_websocket import RawSocket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

FRAMES = 40  # frames read while waiting for one: far more than a test's changes send


@pytest.fixture
def watch(daphne_server: str) -> Iterator[Callable[..., RawSocket]]:
    opened: list[RawSocket] = []

    def open_socket(query: str, cookie: str | None = None) -> RawSocket:
        sock = RawSocket(daphne_server, f"/ws/live/?{query}", cookie, timeout=10)
        opened.append(sock)
        return sock

    yield open_socket
    for sock in opened:
        sock.close()


def next_frame(sock: RawSocket, test: Callable[[dict[str, Any]], bool], seen: list[dict[str, Any]] | None = None,
               ) -> dict[str, Any]:
    """The first frame that passes ``test`` (each read bounded by the socket's timeout)."""
    for _ in range(FRAMES):
        frame = sock.receive()
        assert frame is not None, f"the socket closed ({sock.close_code})"
        if seen is not None:
            seen.append(frame)
        if test(frame):
            return frame
    raise AssertionError("no such frame")


def ids(frame: dict[str, Any]) -> list[int]:
    return [board["id"] for board in frame["boards"]]


def test_a_watcher_gets_the_running_games_best_rated_first_and_a_board_moves_live(
    watch: Callable[..., RawSocket], rated: Callable[[str, int], Any],
) -> None:
    weak = starting.start_game(rated("ann", 1400), rated("ben", 1500))
    strong = starting.start_game(rated("cat", 2000), rated("dan", 1900))
    sock = watch("list=1")
    first = next_frame(sock, lambda f: f["type"] == "list")
    assert ids(first) == [strong.pk, weak.pk]
    assert first["total"] == 2
    assert [(p["name"], p["rating"]) for p in first["boards"][0]["players"]] == [("cat", 2000), ("dan", 1900)]
    assert first["boards"][0]["rating"] == 1950

    moved = move(weak.pk)
    frame = next_frame(sock, lambda f: f["type"] == "boards")
    assert ids(frame) == [weak.pk]
    board = frame["boards"][0]
    assert board["ply"] == 1
    assert board["board"] == payloads.seat_view(moved, None)["board"]
    assert board["to_move"] == "black"


def test_a_new_game_appears_and_a_finished_one_leaves(
    watch: Callable[..., RawSocket], rated: Callable[[str, int], Any],
) -> None:
    old = starting.start_game(rated("ann", 1500), rated("ben", 1500))
    sock = watch("list=1&game=ace")
    assert ids(next_frame(sock, lambda f: f["type"] == "list")) == [old.pk]

    new = starting.start_game(rated("cat", 1800), rated("dan", 1800))
    assert ids(next_frame(sock, lambda f: f["type"] == "list")) == [new.pk, old.pk]

    finishing.resign(new.pk, new.seat("red").user)
    left = next_frame(sock, lambda f: f["type"] == "list")
    assert ids(left) == [old.pk]
    assert left["total"] == 1


def test_a_list_filtered_by_game_and_speed_shows_only_those(
    watch: Callable[..., RawSocket], rated: Callable[[str, int], Any],
) -> None:
    from games.timecontrols import TimeControl

    blitz = starting.start_game(rated("ann", 1500), rated("ben", 1500), time_control=TimeControl.parse("3+2"))
    starting.start_game(rated("cat", 1900), rated("dan", 1500), time_control=TimeControl.parse("10+5"))
    starting.start_game(rated("eve", 1900), rated("fay", 1900), setup=starting.Setup("rhombus"),
                        time_control=TimeControl.parse("3+2"))
    sock = watch("list=1&game=ace&speed=blitz")
    frame = next_frame(sock, lambda f: f["type"] == "list")
    assert frame["list"] == "ace/blitz/0/12"
    assert ids(frame) == [blitz.pk]


def test_tv_goes_on_to_the_next_best_game_when_its_game_ends(
    watch: Callable[..., RawSocket], rated: Callable[[str, int], Any],
) -> None:
    second = starting.start_game(rated("ann", 1700), rated("ben", 1700))
    best = starting.start_game(rated("cat", 2100), rated("dan", 2000))
    rhombus = starting.start_game(rated("eve", 1500), rated("fay", 1500), setup=starting.Setup("rhombus"))
    sock = watch("tv=ace&tv=rhombus")
    shown = {}
    for _ in range(2):
        frame = next_frame(sock, lambda f: f["type"] == "list")
        shown[frame["list"]] = ids(frame)
    assert shown == {"ace/all/0/1": [best.pk], "rhombus/all/0/1": [rhombus.pk]}

    finishing.resign(best.pk, best.seat("black").user)
    frame = next_frame(sock, lambda f: f["type"] == "list" and f["list"] == "ace/all/0/1")
    assert ids(frame) == [second.pk]


def test_the_games_of_the_players_you_follow_come_in_their_own_frame(
    watch: Callable[..., RawSocket], rated: Callable[[str, int], Any], alice: Any, cookies: dict[str, str],
) -> None:
    friend = rated("friend", 1200)
    follows.follow(alice, friend)
    starting.start_game(rated("cat", 2100), rated("dan", 2000))
    sock = watch("list=1&following=1", cookies["alice"])
    assert next_frame(sock, lambda f: f["type"] == "following")["boards"] == []

    theirs = starting.start_game(friend, rated("opp", 1300))
    frame = next_frame(sock, lambda f: f["type"] == "following")
    assert ids(frame) == [theirs.pk]
    move(theirs.pk)
    assert ids(next_frame(sock, lambda f: f["type"] == "boards")) == [theirs.pk]


# A card token anywhere in text: 10H, 7S, AH, QC... (pawn names look the same).
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[HDSC](?![0-9A-Za-z])")
PAWN = re.compile(r"[AKQJ][HDSC]")
CARD_FIELDS = {"id", "url", "kind", "game", "players", "sides", "rating", "time_control", "speed", "status", "ply",
               "to_move", "board", "clock", "result", "event"}


def test_no_frame_of_the_list_or_tv_holds_a_card_of_a_hand_or_a_deck(
    watch: Callable[..., RawSocket], rated: Callable[[str, int], Any],
) -> None:
    """R18, RH29: only the board's pawns (public) are card-like; nothing else."""
    games = [starting.start_game(rated(f"p{i}", 1500 + i), rated(f"q{i}", 1500)) for i in range(3)]
    games.append(starting.start_game(rated("r1", 1600), rated("r2", 1600), setup=starting.Setup("rhombus")))
    sock = watch("list=1&tv=ace&tv=rhombus")
    frames: list[dict[str, Any]] = []
    for _ in range(3):
        next_frame(sock, lambda f: f["type"] == "list", frames)
    for _ in range(4):
        for game in games:
            move(game.pk)
    last = games[-1]
    next_frame(sock, lambda f: f["type"] == "boards" and any(b["id"] == last.pk and b["ply"] == 4
                                                             for b in f["boards"]), frames)
    boards = [board for frame in frames for board in frame.get("boards", [])]
    assert boards
    for board in boards:
        game = Game.objects.get(pk=board["id"])
        public = {key: value for key, value in board.items() if key != "board"}
        assert "hand" not in json.dumps(public)
        assert not CARD.findall(json.dumps(public))
        assert set(board) == CARD_FIELDS
        if game.kind == starting.ACE:  # pawns only (R2), public on the board; never a card of a hand or deck
            assert all(PAWN.fullmatch(pawn) for pawn in board["board"].values())
            assert len(board["board"]) <= 16
        else:
            assert set(board["board"].values()) <= {"SW", "SE", "NE", "NW"}


def test_the_socket_only_listens_and_answers_a_ping(watch: Callable[..., RawSocket]) -> None:
    sock = watch("list=1")
    assert next_frame(sock, lambda f: f["type"] == "list")["boards"] == []
    sock.send_json({"type": "act", "ply": 0, "action": "5H e1-e6"})
    assert next_frame(sock, lambda f: True) == {"type": "error", "message": "unknown message type: use ping"}
    sock.send_json({"type": "ping"})
    assert next_frame(sock, lambda f: True) == {"type": "pong"}


def test_a_socket_asking_for_nothing_known_gets_nothing_and_stays_open(
    watch: Callable[..., RawSocket], rated: Callable[[str, int], Any],
) -> None:
    starting.start_game(rated("ann", 1500), rated("ben", 1500))
    sock = watch("tv=chess&game=ace")
    sock.send_json({"type": "ping"})
    assert next_frame(sock, lambda f: True) == {"type": "pong"}  # no list came before it


def test_a_move_shown_in_two_lists_of_a_socket_comes_once_in_one_frame(
    watch: Callable[..., RawSocket], rated: Callable[[str, int], Any],
) -> None:
    """The home page shows the best game twice (TV and the list): its move is one board."""
    best = starting.start_game(rated("cat", 2100), rated("dan", 2000))
    starting.start_game(rated("ann", 1500), rated("ben", 1500))
    sock = watch("home=1")
    lists = {next_frame(sock, lambda f: f["type"] == "list")["list"] for _ in range(2)}
    assert lists == {"all/all/0/6", "all/all/0/1"}
    move(best.pk)
    frame = next_frame(sock, lambda f: f["type"] == "boards")
    assert ids(frame) == [best.pk]
    assert frame["boards"][0]["ply"] == 1


def test_a_game_ending_off_the_screen_sends_tv_nothing(
    watch: Callable[..., RawSocket], rated: Callable[[str, int], Any],
) -> None:
    best = starting.start_game(rated("cat", 2100), rated("dan", 2000))
    other = starting.start_game(rated("ann", 1500), rated("ben", 1500))
    sock = watch("tv=ace")
    assert ids(next_frame(sock, lambda f: f["type"] == "list")) == [best.pk]
    finishing.resign(other.pk, other.seat("red").user)  # the total changes; what TV shows does not
    move(best.pk)
    assert next_frame(sock, lambda f: True)["type"] == "boards"

"""Rhombus records and replays on the site (RH29, RH30; issue 13): a stored
game as a record, its steps, the downloads, the import and the replay page.

While a game runs nothing of a hand, the pile or the seed leaves the server;
once it is over the seed is revealed and checked, and every hand is shown.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

import engine
from engine.errors import RecordError
from engine.record import RhombusRecord, read_rhombus, replay_rhombus
from games import finishing, moving, records, starting
from games.models import Game, Move
from tests.helpers import shows_secret

pytestmark = pytest.mark.django_db

RULES = engine.GAMES["rhombus"]
SEED = "t4"  # random play from this seed ends by RH27's quiet rule after 100 actions
# Rhombus's cards (RH5), as tests/games/test_rhombus_no_leaks.py finds them.
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[6-9AJQK])[HDSC](?![0-9A-Za-z])")
STEPS = re.compile(r'<script id="replay-steps" type="application/json">(.*?)</script>', re.S)


def play_random(game: Game, users: dict[str, Any], count: int, rng: random.Random) -> Game:
    """Up to ``count`` random legal actions through moving.submit, as players would send them."""
    for _ in range(count):
        g = Game.objects.get(pk=game.pk)
        if not g.running:
            return fresh(g)
        action = rng.choice(RULES.legal_actions(RULES.from_json(g.position)))
        moving.submit(g.pk, users[g.to_move], g.ply, str(action))
    return fresh(game)


def fresh(game: Game) -> Game:
    found: Game = Game.objects.get(pk=game.pk)
    return found


def seated(game: Game) -> dict[str, Any]:
    return {seat.name: seat.user for seat in Game.objects.get(pk=game.pk).table}


@pytest.fixture
def two(alice: Any, bob: Any) -> Game:
    """Alice (SW) and Bob (NE), 20 actions in and still running."""
    game = starting.start_game(alice, bob, seed=SEED, setup=starting.Setup("rhombus"))
    return play_random(game, seated(game), 20, random.Random(4))


@pytest.fixture
def four(alice: Any, bob: Any, charlie: Any, dave: Any) -> Game:
    """A team game (RH31), 24 actions in and still running."""
    game = starting.start_game(alice, bob, charlie, dave, seed="four", setup=starting.Setup("rhombus"))
    return play_random(game, seated(game), 24, random.Random(5))


def record_of(game: Game, *, secret: bool = False) -> RhombusRecord:
    """The game's record as the site gives it, or with the secret seed (server-side only)."""
    record = records._full_record(game) if secret else records.record_of(game)
    assert isinstance(record, RhombusRecord)
    return record


def steps_on_page(html: str) -> list[dict[str, Any]]:
    found = STEPS.search(html)
    assert found, "the page embeds its steps"
    return list(json.loads(found.group(1)))


def public_cards(game: Game) -> set[str]:
    """Every card anyone may have seen so far (RH29): the table cards and the
    discard pile at every step, and the cards named in the actions played."""
    states = replay_rhombus(record_of(game, secret=True))  # server-side, with the secret seed
    seen: set[str] = set()
    for state in states:
        full = RULES.to_json(state)
        seen |= {card for seat in full["seats"].values() for card in seat["table"]} | set(full["discard"])
    return seen | {card for text in game.moves.values_list("action", flat=True) for card in CARD.findall(text)}


def hidden_cards(game: Game) -> set[str]:
    """The cards of the hands and the pile now that no one but their owner has seen."""
    position = Game.objects.get(pk=game.pk).position
    held = {card for seat in position["seats"].values() for card in seat["hand"]} | set(position["pile"])
    return held - public_cards(game)


# --- Records -------------------------------------------------------------------


@pytest.mark.parametrize("fixture, winner", [("two", "SW"), ("four", "SE+NW")])
def test_a_finished_record_replays_to_the_stored_position_and_round_trips(
        fixture: str, winner: str, request: pytest.FixtureRequest) -> None:
    running: Game = request.getfixturevalue(fixture)
    loser = next(seat for seat in running.seat_names if seat not in winner.split("+"))
    game = finishing.resign(running.pk, seated(running)[loser])
    record = record_of(game)
    assert [str(a) for a in record.actions] == list(Move.objects.filter(game=game).values_list("action", flat=True))
    assert record.players == {s.name: s.user.get_username() for s in game.table}
    assert (record.seed, record.winner, record.reason, record.variant) == (game.seed, winner, "resignation", "classic")
    assert record.commitment == game.commitment == RULES.commitment(game.seed)
    states = replay_rhombus(record)
    assert len(states) == game.ply + 1 and RULES.to_json(states[-1]) == game.position
    assert RhombusRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert read_rhombus(record.to_text()) == record
    assert records.read_record(record.to_text()) == record == records.read_record(json.dumps(record.to_json()))


def test_a_running_record_has_no_seed_and_its_steps_no_hand(four: Game) -> None:
    record = record_of(four)
    assert record.seed is None and record.reason is None and record.winner is None
    assert len(record.actions) == 24
    with pytest.raises(RecordError, match="RH30"):
        replay_rhombus(record)
    steps = records.steps_of_game(four)
    assert len(steps) == 25 and [s["index"] for s in steps] == list(range(25))
    assert all(s["hands"] is None and s["view"]["seed_hex"] is None and s["view"]["seat"] is None for s in steps)
    assert all("hand" not in shown for s in steps for shown in s["view"]["seats"].values())
    # Each action is credited to the seat that made it, round the table from SW (RH9, RH31).
    assert [s["seat"] for s in steps[1:5]] == ["SW", "SE", "NE", "NW"]
    assert [s["action"] for s in steps[1:]] == [str(a) for a in record.actions]


def test_after_the_end_every_step_shows_every_hand(two: Game, bob: Any) -> None:
    game = finishing.resign(two.pk, bob)
    steps = records.steps_of_game(game)
    states = replay_rhombus(record_of(game))
    for step, state in zip(steps, states, strict=True):
        full = RULES.to_json(state)
        assert step["hands"] == {seat: shown["hand"] for seat, shown in full["seats"].items()}
        assert "pile" not in step["view"]  # the pile's order stays out: its count is enough


def test_a_game_ended_by_the_rules_names_the_rule(alice: Any, bob: Any) -> None:
    """The quiet rule's draw (RH27) is Game.Reason.QUIET on the site and RH27 in the record."""
    game = starting.start_game(alice, bob, seed=SEED, setup=starting.Setup("rhombus"))
    game = play_random(game, seated(game), 400, random.Random(4))
    assert (game.status, game.reason, game.winner) == ("finished", Game.Reason.QUIET, "")
    record = record_of(game)
    assert (record.reason, record.winner, record.result) == ("RH27", None, "1/2-1/2")
    assert len(replay_rhombus(record)) == game.ply + 1  # the recorded end agrees with the replayed one
    html = Client().get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "drawn by the quiet rule (RH27)" in html


def test_an_adjudicated_game_s_record_imports(two: Game) -> None:
    game = finishing.adjudicate(two.pk, "NE", "SW's connection broke")
    record = record_of(game)
    assert (record.reason, record.winner, record.headers["Adjudication"]) == ("adjudication", "NE", "SW's connection broke")
    assert records.read_record(record.to_text()) == record
    assert len(records.steps_of_record(record)) == game.ply + 1


# --- Hidden information (RH29) -----------------------------------------------


@pytest.mark.parametrize("fixture", ["two", "four"])
def test_a_running_game_s_replay_and_downloads_hold_no_hand_card_pile_or_seed(
        fixture: str, request: pytest.FixtureRequest) -> None:
    game: Game = request.getfixturevalue(fixture)
    client = Client()
    client.force_login(game.table[0].user)  # a player looking at the replay sees no more than anyone
    hidden = hidden_cards(game)
    assert hidden, "some cards are still hidden, or the check proves nothing"
    public = public_cards(game)
    for name in ("games:replay", "games:record-json", "games:record-txt"):
        response = client.get(reverse(name, args=[game.pk]))
        assert response.status_code == 200
        text = response.content.decode()
        shown = set(CARD.findall(text))
        assert shown <= public, (name, shown - public)
        assert not shows_secret(text, game.seed) and '"pile"' not in text and '"hands": {' not in text
    steps = steps_on_page(client.get(reverse("games:replay", args=[game.pk])).content.decode())
    assert all(step["hands"] is None for step in steps)


def test_a_finished_game_s_replay_shows_the_seed_checked_and_every_hand(two: Game, bob: Any) -> None:
    game = finishing.resign(two.pk, bob)
    html = Client().get(reverse("games:replay", args=[game.pk])).content.decode()
    assert game.seed in html and "checked ✓" in html and game.commitment in html
    assert "alice (SW) won by resignation (RH27)" in html
    last = steps_on_page(html)[-1]
    assert last["hands"] == {seat: shown["hand"] for seat, shown in game.position["seats"].items()}


def test_a_running_game_s_page_shows_the_commitment_and_no_seed(two: Game) -> None:
    html = Client().get(reverse("games:replay", args=[two.pk])).content.decode()
    assert two.commitment in html and not shows_secret(html, two.seed) and "checked ✓" not in html
    assert "The seed stays secret until the game is over" in html


# --- Downloads and import ----------------------------------------------------


@pytest.mark.parametrize("fixture", ["two", "four"])
@pytest.mark.parametrize("form", ["record-json", "record-txt"])
def test_a_downloaded_record_imports_to_the_same_steps(fixture: str, form: str, request: pytest.FixtureRequest) -> None:
    running: Game = request.getfixturevalue(fixture)
    game = finishing.resign(running.pk, seated(running)["SW"])
    client = Client()
    response = client.get(reverse(f"games:{form}", args=[game.pk]))
    suffix = "json" if form == "record-json" else "txt"
    assert response["Content-Disposition"] == f'attachment; filename="aceweb-{game.pk}.{suffix}"'
    games = Game.objects.count()
    imported = client.post(reverse("games:import"), {"record": response.content.decode()})
    assert imported.status_code == 200
    html = imported.content.decode()
    assert "Imported record" in html and "checked ✓" in html
    assert steps_on_page(html) == json.loads(json.dumps(records.steps_of_game(game)))
    assert Game.objects.count() == games  # nothing stored


def test_an_uploaded_record_file_imports(two: Game, bob: Any) -> None:
    game = finishing.resign(two.pk, bob)
    upload = SimpleUploadedFile("aceweb.txt", record_of(game).to_text().encode())
    response = Client().post(reverse("games:import"), {"file": upload})
    assert response.status_code == 200 and "Fair shuffle (RH30)" in response.content.decode()


def _tampered_seed(record: RhombusRecord) -> str:
    return json.dumps({**record.to_json(), "seed": "not-the-seed"})


def _illegal_action(record: RhombusRecord) -> str:
    data = record.to_json()
    data["actions"][2] = data["actions"][0]  # the first action again, from another seat's cards
    return json.dumps(data)


def _unknown_format(record: RhombusRecord) -> str:
    return json.dumps({**record.to_json(), "format": "chess/1"})


def _other_game(record: RhombusRecord) -> str:
    return record.to_text().replace('[Game "Rhombus"]', '[Game "Chess"]')


def _three_players(record: RhombusRecord) -> str:
    return json.dumps({**record.to_json(), "players": {"SW": "a", "NE": "b", "SE": "c"}})


def _wrong_seat(record: RhombusRecord) -> str:
    return record.to_text().replace("2. NE ", "2. SW ")


@pytest.mark.parametrize("spoil, message", [
    (_tampered_seed, "the seed does not match the commitment: SHA-256 of the seed differs (RH30)"),
    (_illegal_action, "action 3 (SW&#x27;s 2nd turn)"),
    (_unknown_format, "unknown record format &#x27;chess/1&#x27;: aceweb reads ace-in-the-hole/1"),
    (_other_game, "this is a record of &#x27;Chess&#x27;"),
    (_three_players, "Rhombus is played by 2 or 4 players, not 3"),
    (_wrong_seat, "expected action 2, played by NE, not 2. SW"),
])
def test_a_bad_record_is_refused_with_a_clear_message_and_nothing_stored(
        two: Game, bob: Any, spoil: Any, message: str) -> None:
    game = finishing.resign(two.pk, bob)
    games, moves = Game.objects.count(), Move.objects.count()
    response = Client().post(reverse("games:import"), {"record": spoil(record_of(game))})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html, re.findall(r'form-error[^>]*>([^<]*)', html)
    assert (Game.objects.count(), Move.objects.count()) == (games, moves)


def test_an_import_tells_the_games_apart_by_format_or_headers(two: Game, bob: Any, game: Game) -> None:
    rhombus = record_of(finishing.resign(two.pk, bob))
    ace = records.record_of(finishing.resign(game.pk, bob))
    assert records.kind_of(records.read_record(ace.to_text())) == "ace-in-the-hole"
    assert records.kind_of(records.read_record(json.dumps(ace.to_json()))) == "ace-in-the-hole"
    # A hand-written Rhombus record may leave out [Game]: its seats' headers say which game it is.
    bare = "\n".join(line for line in rhombus.to_text().splitlines() if not line.startswith("[Game \""))
    assert records.read_record(bare) == rhombus
    unmarked = {key: value for key, value in rhombus.to_json().items() if key != "format"}
    with pytest.raises(RecordError, match="unknown record format None; this reads rhombus/1"):
        records.read_record(json.dumps(unmarked))


def test_a_running_game_s_record_cannot_be_imported_until_its_seed_is_out(two: Game) -> None:
    text = Client().get(reverse("games:record-txt", args=[two.pk])).content.decode()
    response = Client().post(reverse("games:import"), {"record": text})
    assert response.status_code == 400 and "the seed is not revealed yet" in response.content.decode()


# --- Links ---------------------------------------------------------------------


def test_a_rhombus_game_lists_and_panels_link_its_replay(two: Game, alice: Any) -> None:
    [row] = records.games_of(alice)
    assert row.replay_url == f"/games/{two.pk}/replay/"
    client = Client()
    client.force_login(alice)
    assert f"/games/{two.pk}/replay/" in client.get(f"/games/{two.pk}/").content.decode()


def test_a_formation_game_replays_and_round_trips(alice: Any, bob: Any) -> None:
    """Formation (RH41) deals from the double pack: the record keeps its variant."""
    game = starting.start_game(alice, bob, seed="formation", setup=starting.Setup("rhombus", "formation"))
    game = finishing.resign(play_random(game, seated(game), 10, random.Random(9)).pk, bob)
    record = record_of(game)
    assert record.variant == "formation" and '[Variant "formation"]' in record.to_text()
    assert records.steps_of_record(records.read_record(record.to_text())) == records.steps_of_game(game)
    html = Client().get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "Rhombus Formation" in html and "checked ✓" in html


def test_an_aborted_game_s_replay_says_so_and_shows_the_seed(alice: Any, bob: Any) -> None:
    game = finishing.abort(starting.start_game(alice, bob, setup=starting.Setup("rhombus")).pk, alice)
    record = record_of(game)
    assert (record.reason, record.winner, record.result, record.seed) == ("aborted", None, "*", game.seed)
    html = Client().get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "Result: aborted (RH27)" in html and "checked ✓" in html
    assert records.read_record(record.to_text()) == record

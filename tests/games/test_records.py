"""Records (R19): record_of, the downloads, the import form; and the replay page (R18)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import engine
from engine.errors import RecordError
from engine.record import Record, replay
from games import finishing, moving, records, starting
from games.models import Game, Move

pytestmark = pytest.mark.django_db

SEED = "tests-game-seed"
NUMBER_CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9])[HDSC](?![0-9A-Za-z])")


def play_moves(game: Game, players: dict[str, Any], count: int, rng: random.Random) -> Game:
    for _ in range(count):
        g = Game.objects.get(pk=game.pk)
        if not g.running:
            return g
        action = rng.choice(engine.legal_actions(engine.from_json(g.position)))
        moving.submit(g.pk, players[g.to_move], g.ply, str(action))
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def played(game: Game, alice: Any, bob: Any) -> Game:
    """Alice and Bob's game, 15 plies in and still running."""
    return play_moves(game, {"red": alice, "black": bob}, 15, random.Random(7))


@pytest.fixture
def over(played: Game, bob: Any) -> Game:
    return finishing.resign(played.pk, bob)


def test_a_finished_record_replays_to_the_stored_position_and_matches_the_moves(over: Game) -> None:
    record = records.record_of(over)
    assert [str(a) for a in record.actions] == list(Move.objects.filter(game=over).values_list("action", flat=True))
    assert (record.seed, record.winner, record.reason) == (SEED, "red", "resignation")
    assert (record.red, record.black, record.commitment) == ("alice", "bob", engine.commitment(SEED))
    states = replay(record)
    assert len(states) == over.ply + 1 and engine.to_json(states[-1]) == over.position
    for form in (Record.from_json(json.loads(json.dumps(record.to_json()))), engine.record.read(record.to_text())):
        assert form == record


def test_a_running_record_has_no_seed_and_cannot_be_replayed_from_it(played: Game) -> None:
    record = records.record_of(played)
    assert record.seed is None and record.reason is None and len(record.actions) == 15
    assert "Seed" not in record.to_text() and SEED not in record.to_text()
    with pytest.raises(RecordError, match="not revealed"):
        replay(record)


def test_the_downloads_are_the_engines_forms(over: Game, played: Game, client: Client) -> None:
    as_json = client.get(reverse("games:record-json", args=[over.pk]))
    assert as_json.status_code == 200 and "attachment" in as_json["Content-Disposition"]
    assert Record.from_json(as_json.json()) == records.record_of(over)
    as_text = client.get(reverse("games:record-txt", args=[over.pk]))
    assert as_text["Content-Type"].startswith("text/plain")
    assert Record.from_text(as_text.content.decode()) == records.record_of(over)
    assert client.get(reverse("games:record-json", args=[999999])).status_code == 404


def test_a_running_games_downloads_hold_no_seed(played: Game, client: Client) -> None:
    assert client.get(reverse("games:record-json", args=[played.pk])).json()["seed"] is None
    assert SEED not in client.get(reverse("games:record-txt", args=[played.pk])).content.decode()


def test_importing_a_good_record_shows_its_replay(over: Game, client: Client) -> None:
    text = records.record_of(over).to_text()
    response = client.post(reverse("games:import"), {"record": text})
    html = response.content.decode()
    assert response.status_code == 200 and "checked ✓" in html and SEED in html
    steps = json.loads(re.search(r'id="replay-steps"[^>]*>(.*?)</script>', html, re.S)[1])
    assert len(steps) == over.ply + 1 and steps[-1]["view"]["board"] == over.position["board"]


def test_an_adjudicated_game_s_record_imports_too(played: Game, client: Client) -> None:
    """A tournament's adjudication (and no-show forfeit) is a platform ending the record keeps."""
    game = finishing.adjudicate(played.pk, "black", "Red's connection broke")
    text = records.record_of(game).to_text()
    assert '[Termination "adjudication"]' in text
    response = client.post(reverse("games:import"), {"record": text})
    assert response.status_code == 200 and "bob (black) won by adjudication" in response.content.decode()


def test_importing_an_uploaded_json_file_works_too(over: Game, client: Client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    data = json.dumps(records.record_of(over).to_json()).encode()
    response = client.post(reverse("games:import"), {"file": SimpleUploadedFile("g.json", data)})
    assert response.status_code == 200 and "checked ✓" in response.content.decode()


def test_a_tampered_record_shows_the_engines_error_in_the_form(over: Game, client: Client) -> None:
    record = records.record_of(over).to_json()
    record["actions"][4] = record["actions"][2]  # Red replays a card already played
    response = client.post(reverse("games:import"), {"record": json.dumps(record)})
    html = response.content.decode()
    with pytest.raises(RecordError) as expected:
        replay(Record.from_json(record))
    assert response.status_code == 400 and "action 5 (Red&#x27;s 3rd turn)" in html
    assert str(expected.value).replace("'", "&#x27;") in html and "Traceback" not in html


def test_a_record_with_a_false_seed_is_refused(over: Game, client: Client) -> None:
    record = records.record_of(over).to_json()
    record["seed"] = "a different seed"
    html = client.post(reverse("games:import"), {"record": json.dumps(record)}).content.decode()
    assert "the seed does not match the commitment" in html


@pytest.mark.parametrize("text", ["", "{not json", "[Red \"x\"]\n1. 5H e1-e6", "\xff" * 10])
def test_garbage_gets_a_message_not_a_traceback(client: Client, text: str) -> None:
    response = client.post(reverse("games:import"), {"record": text})
    assert response.status_code == 400 and 'class="form-error"' in response.content.decode()


def test_the_import_form_is_served(client: Client) -> None:
    response = client.get(reverse("games:import"))
    assert response.status_code == 200 and 'name="record"' in response.content.decode()


# --- The replay page ----------------------------------------------------------


def test_a_finished_games_replay_shows_both_hands_and_the_checked_seed(over: Game, client: Client) -> None:
    html = client.get(reverse("games:replay", args=[over.pk])).content.decode()
    assert SEED in html and "checked ✓" in html and over.commitment in html
    steps = json.loads(re.search(r'id="replay-steps"[^>]*>(.*?)</script>', html, re.S)[1])
    assert len(steps) == over.ply + 1
    assert steps[-1]["hands"] == over.position["hands"]
    assert steps[1]["action"] == Move.objects.get(game=over, ply=0).action
    for seat, cards in over.position["hands"].items():  # drawn as cards, each named by its code
        drawn = re.search(rf'data-hand="{seat}">(.*?)</span></p>', html, re.S)
        assert drawn is not None and re.findall(r'data-card="(\w+)"', drawn[1]) == cards


def test_a_running_games_replay_shows_no_hidden_card(played: Game, client: Client) -> None:
    html = client.get(reverse("games:replay", args=[played.pk])).content.decode()
    position = played.position
    hidden = {c for hand in position["hands"].values() for c in hand}
    hidden |= {c for deck in position["decks"].values() for c in deck}
    assert hidden, "the game still has hidden cards"
    shown = set(NUMBER_CARD.findall(html))
    assert not shown & hidden, shown & hidden
    played_cards = {a.split()[0] for pile in position["discards"].values() for a in pile}
    assert shown <= played_cards  # the only number cards on the page are the discards
    assert SEED not in html and "checked ✓" not in html and '"hands": {' not in html
    steps = json.loads(re.search(r'id="replay-steps"[^>]*>(.*?)</script>', html, re.S)[1])
    assert len(steps) == 16 and all(s["hands"] is None and s["view"]["hand"] is None for s in steps)


def test_a_missing_game_has_no_replay(client: Client) -> None:
    assert client.get(reverse("games:replay", args=[999999])).status_code == 404


# --- A player's games ---------------------------------------------------------


def test_games_of_lists_results_from_the_players_side(
        over: Game, alice: Any, bob: Any, charlie: Any) -> None:
    running = starting.start_game(charlie, alice, seed=SEED)
    aborted = finishing.abort(starting.start_game(alice, charlie).pk, alice)
    rows = records.games_of(alice)
    assert [r.game_id for r in rows] == [aborted.pk, running.pk, over.pk]
    assert [(r.result, r.seat, r.opponents) for r in rows] == [
        ("aborted", "red", ("charlie",)), ("playing", "black", ("charlie",)), ("win", "red", ("bob",))]
    assert records.games_of(bob)[0].result == "loss" and records.games_of(bob)[0].reason == "by resignation (R17)"
    assert len(records.games_of(alice, limit=2)) == 2
    assert rows[2].replay_url == f"/games/{over.pk}/replay/"


def test_the_game_list_partial_renders_the_rows(over: Game, alice: Any) -> None:
    from django.template.loader import render_to_string
    html = render_to_string("games/_game_list.html", {"game_rows": records.games_of(alice)})
    assert f'href="/games/{over.pk}/replay/"' in html and "Win" in html and "bob" in html

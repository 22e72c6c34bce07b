"""The bracket drawing: well-formed SVG for every field from 2 to 64, each
match drawn once with its id, names escaped, winners marked, links kept."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from tournaments.bracket_svg import bracket_svg
from tournaments.brackets import Bracket, BracketState, build, double_elimination, resolve, single_elimination

SVG = "{http://www.w3.org/2000/svg}"
SIZES = range(2, 65)


def played_out(bracket: Bracket, rng: random.Random, rounds: int = 1000) -> BracketState:
    """Seeds are player ids 101, 102, ...; ``rounds`` batches of ready matches are played at random."""
    players = [100 + seed for seed in range(1, bracket.entrants + 1)]
    winners: dict[str, int] = {}
    state = resolve(bracket, players, winners)
    for _ in range(rounds):
        if not state.ready:
            break
        for match_id in state.ready:
            slot = state[match_id]
            assert slot.top is not None and slot.bottom is not None
            winners[match_id] = rng.choice([slot.top, slot.bottom])
        state = resolve(bracket, players, winners)
    return state


def matches_drawn(root: ET.Element) -> dict[str, ET.Element]:
    groups = [g for g in root.iter(f"{SVG}g") if "data-match" in g.attrib]
    drawn = {g.attrib["data-match"]: g for g in groups}
    assert len(drawn) == len(groups), "a match is drawn twice"
    return drawn


def lines_of(group: ET.Element, role: str) -> list[str]:
    """The names on a match's lines of the given class (winner, loser, player, pending)."""
    return ["".join(text.itertext()) for line in group.iter(f"{SVG}g") if line.attrib.get("class") == role
            for text in line.iter(f"{SVG}text") if text.attrib.get("class") == "name"]


def names_for(state: BracketState) -> dict[int, str]:
    return {player: f"P{player}" for player in state.seeds}


@pytest.mark.parametrize("entrants", SIZES)
@pytest.mark.parametrize("form", ["single", "third", "double"])
def test_every_size_renders_every_match_once(entrants: int, form: str) -> None:
    bracket = build(entrants, double=form == "double", third_place=form == "third")
    for state in (played_out(bracket, random.Random(entrants), rounds=0),
                  played_out(bracket, random.Random(entrants), rounds=3),
                  played_out(bracket, random.Random(entrants))):
        root = ET.fromstring(bracket_svg(state, names_for(state), {}))
        assert root.tag == f"{SVG}svg"
        drawn = matches_drawn(root)
        assert set(drawn) == {m.id for m in bracket.matches}
        assert {g.attrib["id"] for g in drawn.values()} == {f"match-{m.id}" for m in bracket.matches}
        for slot in state:
            assert slot.status in drawn[slot.id].attrib["class"].split()


@pytest.mark.parametrize("entrants", [2, 7, 16, 64])
def test_it_has_a_view_box_the_size_of_its_boxes(entrants: int) -> None:
    state = played_out(double_elimination(entrants), random.Random(1), rounds=0)
    root = ET.fromstring(bracket_svg(state, {}, {}))
    left, top, width, height = (float(v) for v in root.attrib["viewBox"].split())
    assert (left, top) == (0, 0)
    assert (float(root.attrib["width"]), float(root.attrib["height"])) == (width, height)
    for rect in root.iter(f"{SVG}rect"):
        assert 0 <= float(rect.attrib["x"]) and float(rect.attrib["x"]) + float(rect.attrib["width"]) <= width
        assert 0 <= float(rect.attrib["y"]) and float(rect.attrib["y"]) + float(rect.attrib["height"]) <= height


def test_names_are_escaped() -> None:
    bracket = single_elimination(2)
    state = resolve(bracket, [1, 2], {})
    svg = bracket_svg(state, {1: '<&">', 2: "O'Neil\x00"}, {})
    root = ET.fromstring(svg)
    assert lines_of(matches_drawn(root)["W1-1"], "player") == ['<&">', "O'Neil"]
    assert '<&">' not in svg


def test_the_winner_is_marked_and_the_loser_is_not() -> None:
    bracket = single_elimination(4)
    state = resolve(bracket, [1, 2, 3, 4], {"W1-1": 4, "W1-2": 2})
    drawn = matches_drawn(ET.fromstring(bracket_svg(state, {1: "Ann", 2: "Bob", 3: "Cy", 4: "Di"}, {})))
    assert lines_of(drawn["W1-1"], "winner") == ["Di"]
    assert lines_of(drawn["W1-1"], "loser") == ["Ann"]
    assert lines_of(drawn["W2-1"], "player") == ["Di", "Bob"]
    assert lines_of(drawn["W2-1"], "winner") == []


@pytest.mark.parametrize("entrants", [3, 8, 33, 64])
def test_every_finished_match_marks_its_winner(entrants: int) -> None:
    state = played_out(double_elimination(entrants), random.Random(entrants))
    drawn = matches_drawn(ET.fromstring(bracket_svg(state, names_for(state), {})))
    for slot in state:
        if slot.status == "done":
            assert slot.winner is not None and slot.loser is not None
            assert lines_of(drawn[slot.id], "winner") == [f"P{slot.winner}"]
            assert lines_of(drawn[slot.id], "loser") == [f"P{slot.loser}"]
    assert sum(bool(lines_of(g, "winner")) for g in drawn.values()) == len(state.finished)


def test_players_not_yet_known_are_named_by_where_they_come_from() -> None:
    state = resolve(double_elimination(4), [1, 2, 3, 4], {"W1-1": 1})
    drawn = matches_drawn(ET.fromstring(bracket_svg(state, {}, {})))
    assert lines_of(drawn["W2-1"], "pending") == ["Winner of W1-2"]
    assert lines_of(drawn["L1-1"], "pending") == ["Loser of W1-2"]
    assert lines_of(drawn["L1-1"], "player") == ["Player 4"]


def test_links_wrap_the_matches_that_have_a_page() -> None:
    bracket = single_elimination(4, third_place=True)
    state = resolve(bracket, [1, 2, 3, 4], {})
    links = {"W1-1": "/t/9/match/W1-1?a=1&b=2", "3P": "/t/9/match/3P"}
    svg = bracket_svg(state, {}, links)
    drawn = matches_drawn(ET.fromstring(svg))
    for match_id, group in drawn.items():
        anchors = [a.attrib["href"] for a in group.iter(f"{SVG}a")]
        assert anchors == ([links[match_id]] if match_id in links else [])
    assert "&amp;b=2" in svg


def test_an_unneeded_reset_is_drawn_void() -> None:
    results = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 3, "L2-1": 2, "GF": 1}
    state = resolve(double_elimination(4), [1, 2, 3, 4], results)
    drawn = matches_drawn(ET.fromstring(bracket_svg(state, {}, {})))
    assert "void" in drawn["GF2"].attrib["class"].split()
    assert "done" in drawn["GF"].attrib["class"].split()


def test_a_long_name_is_cut_and_given_whole_in_the_tooltip() -> None:
    long_name = "Bartholomew Featherstonehaugh-Smythe"
    state = resolve(single_elimination(2), [5, 6], {})
    group = matches_drawn(ET.fromstring(bracket_svg(state, {5: long_name, 6: "Al"}, {})))["W1-1"]
    shown = lines_of(group, "player")[0]
    assert shown.endswith("…") and len(shown) < len(long_name)
    assert long_name in "".join(group.find(f"{SVG}title").itertext())  # type: ignore[union-attr]


def test_lines_join_each_match_to_the_next() -> None:
    state = resolve(double_elimination(8), list(range(1, 9)), {})
    root = ET.fromstring(bracket_svg(state, {}, {}))
    paths = [p for p in root.iter(f"{SVG}path") if p.attrib.get("class") == "link"]
    # One per "winner of" source: 6 in the winners' bracket, 5 in the losers'
    # (the drop-ins are named, not drawn), 2 into the grand final, 1 to the reset.
    assert len(paths) == 6 + 5 + 2 + 1


@pytest.mark.parametrize("entrants", [5, 12, 32])
def test_each_line_runs_from_a_box_to_the_box_its_winner_goes_to(entrants: int) -> None:
    bracket = double_elimination(entrants)
    state = resolve(bracket, list(range(1, entrants + 1)), {})
    root = ET.fromstring(bracket_svg(state, {}, {}))
    boxes = {g.attrib["data-match"]: g.find(f"{SVG}rect") for g in matches_drawn(root).values()}
    joined = set()
    for path in root.iter(f"{SVG}path"):
        start, end = boxes[path.attrib["data-from"]], boxes[path.attrib["data-to"]]
        assert start is not None and end is not None
        assert bracket[path.attrib["data-from"]].winner_to == path.attrib["data-to"]
        move, *_, last = path.attrib["d"].split("H")
        x1, y1 = (float(v) for v in move[1:].split())
        assert x1 == float(start.attrib["x"]) + float(start.attrib["width"])
        assert y1 == float(start.attrib["y"]) + float(start.attrib["height"]) / 2
        assert float(last) == float(end.attrib["x"])
        joined.add((path.attrib["data-from"], path.attrib["data-to"]))
    expected = {(m.id, m.winner_to) for m in bracket.matches if m.winner_to is not None}
    assert joined == expected

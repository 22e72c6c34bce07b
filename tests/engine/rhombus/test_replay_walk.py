"""Replaying a game without listing its positions' actions (issue 22, finding 4; RH26, RH47, RH48, N1).

:func:`engine.rhombus.walk` plays a record's actions as :func:`apply` does,
one by one, but checks each as written instead of listing every legal action
of every position; :func:`apply` checks an action against its own cards'
outcomes only; :func:`outcome` lists actions only for a hand of movers alone
(RH26). Each must give exactly what the full list (``rules.legal``) gives:
the same states, canonical actions, endings and refusals.
"""
from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.errors import EngineError
from engine.rhombus import Action, State, apply, new_game, outcome, rules, step, walk
from engine.rhombus import fastplay
from engine.rhombus.cards import CARD_NAMES, SQUARE_NAMES
from engine.rhombus.rules import legal

VARIANTS = pytest.mark.parametrize("players, variant", [
    (2, "classic"), (4, "classic"), (2, "formation"), (4, "formation"),
])


def random_game(players: int, variant: str, seed: str, plies: int) -> tuple[State, list[Action]]:
    """A seeded random game (fast playout moves, as canonical actions), at most ``plies`` long."""
    rng = random.Random(seed)
    start = s = new_game(seed, players=players, variant=variant)
    actions = []
    while len(actions) < plies and (move := fastplay.random_move(fastplay.Sim(s), rng)) is not None:
        actions.append(fastplay.to_action(s, move))
        s = apply(s, actions[-1])
    return start, actions


def by_listing(s: State, action: Action) -> tuple[State, Action] | str:
    """What ``step`` gave when it listed every action first (its code before issue 22):
    the state and canonical action, or the refusal's message."""
    table = legal(s)
    try:
        key = table.by_text.get(action.text)
        if key is None:
            key = rules.key_of(s, action)
            if key not in table.by_key:
                return f"{action.text}: not a legal action here (N1)"
            if (action.kind == "discard") != (table.by_key[key].kind == "discard"):
                return "RH48" if action.kind == "discard" else "RH47"
    except EngineError as error:
        return str(error)
    return rules.finish(s, key), table.by_key[key]


@VARIANTS
def test_walk_gives_every_state_apply_gives_one_action_at_a_time(players: int, variant: str) -> None:
    start, actions = random_game(players, variant, f"walk-{players}-{variant}", 400)
    one_by_one, s = [], start
    for action in actions:
        s = apply(s, action)
        one_by_one.append(s)
    assert list(walk(start, actions)) == one_by_one
    assert list(walk(start, [str(a) for a in actions])) == one_by_one  # texts as a record holds them


def test_walk_lists_no_position_s_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cost the replay page paid: every ply's whole list, twice (issue 22, finding 4)."""
    start, actions = random_game(2, "formation", "walk-count", 150)
    listed: list[State] = []
    real = rules.legal

    def counting(s: State) -> rules.Legal:
        listed.append(s)
        return real(s)

    monkeypatch.setattr(rules, "legal", counting)
    states = list(walk(start, actions))
    assert len(states) == len(actions) == 150
    assert listed == []
    assert outcome(states[-1]) is None and listed == []  # Formation always has an action (RH47, RH48)


def mutations(s: State, action: Action, rng: random.Random) -> Iterator[str]:
    """The action's text and near misses: one square or one card changed, as a bad record would hold."""
    text = str(action)
    yield text
    words = text.replace(",", " ,").split(" ")
    held = s.tables[s.to_move] + s.hands[s.to_move]
    for _ in range(6):
        i = rng.randrange(len(words))
        word = words[i]
        if "-" in word or "x" in word[1:] and len(word) == 5:
            sep = "-" if "-" in word else "x"
            frm, to = word.split(sep)
            new = f"{frm}{sep}{rng.choice(SQUARE_NAMES)}" if rng.random() < 0.5 else f"{rng.choice(SQUARE_NAMES)}{sep}{to}"
        elif word[:1].isdigit() or word[:1] in "AJQK":
            new = CARD_NAMES[rng.choice(held)] if rng.random() < 0.7 else rng.choice(CARD_NAMES)
        else:
            continue
        yield " ".join(words[:i] + [new] + words[i + 1:]).replace(" ,", ",")


@VARIANTS
def test_apply_and_walk_accept_and_refuse_exactly_what_the_full_list_does(players: int, variant: str) -> None:
    """Over a random game's positions and near misses of their actions: the same outcome,
    the same canonical action, and the same refusal message (RH47, RH48, N1)."""
    rng = random.Random(7)
    start, actions = random_game(players, variant, f"near-{players}-{variant}", 120)
    s, checked = start, 0
    for action in actions:
        for text in mutations(s, action, rng):
            try:
                candidate = Action.parse(text)
            except EngineError:
                continue
            expected = by_listing(s, candidate)
            try:
                got: tuple[State, Action] | str = step(s, candidate)
            except EngineError as error:
                got = str(error)
            try:
                walked: State | str = next(walk(s, [candidate]))
            except EngineError as error:
                walked = str(error)
            if isinstance(expected, str):
                assert isinstance(got, str) and got == walked, text
                assert got == expected or got.endswith(f"({expected})"), text
            else:
                assert got == expected and walked == expected[0], text
            checked += 1
        s = apply(s, action)
    assert checked > len(actions)


@VARIANTS
def test_outcome_lists_actions_only_when_no_card_shows_one_rh26(players: int, variant: str) -> None:
    start, actions = random_game(players, variant, f"ending-{players}-{variant}", 100 if variant == "formation" else 300)
    s = start
    for action in actions:
        over = rules.ended(s)
        if over is None and not legal(s).actions:
            over = rules.Outcome(rules.side_name(s, 1 - s.to_move % 2),
                                 tuple(n for i, n in enumerate(s.seats) if i % 2 != s.to_move % 2), "RH26")
        assert outcome(s) == over
        s = apply(s, action)
    if not legal(s).actions and rules.ended(s) is None:
        assert outcome(s) is not None and outcome(s).reason == "RH26"


# Calls inside a module compiled by mypyc (scripts/mypyc_engine.py) are bound when it is
# built, so a monkeypatched function is never called and nothing can be counted.
@pytest.mark.skipif(not rules.__file__ or not rules.__file__.endswith(".py"),
                    reason="rules compiled by mypyc: its internal calls cannot be monkeypatched")
def test_a_position_played_from_again_and_again_is_searched_once_per_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot scores every action from one position: the first apply searches towards the
    played action's outcome, the next lists the position once, the rest use that list (the
    greedy bot had become 30 times slower when each apply searched its cards)."""
    start, actions = random_game(2, "formation", "again", 30)
    s = list(walk(start, actions))[-1]  # a position nobody listed
    texts = [str(a) for a in rules._listing(s).actions]
    calls = {"listing": 0, "one action": 0}
    listing, played = rules._listing, rules._played

    def counted_listing(t: State) -> rules.Legal:
        calls["listing"] += 1
        return listing(t)

    def counted_played(t: State, action: Action, key: rules.Key) -> tuple[rules.Key, Action] | None:
        calls["one action"] += 1
        return played(t, action, key)

    monkeypatch.setattr(rules, "_listing", counted_listing)
    monkeypatch.setattr(rules, "_played", counted_played)
    after = [apply(s, text) for text in texts]
    assert len(texts) > 20 and len(set(after)) == len(texts)
    assert calls == {"listing": 1, "one action": 1}

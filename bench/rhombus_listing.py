"""Rhombus listing benchmark: CPU time of one position's legal-action listing (issue 24).

    .venv/bin/python bench/rhombus_listing.py [--positions 2000] [--seed listing]
        [--variant formation] [--players 2 4] [--every 3] [--worst 24] [--top 5] [--steps]

With ``--steps`` it times instead what the live page asks of the engine
(engine/rhombus/builder.py): the card sets with a legal action (the mover's
first view), then, for the position's largest card set, each ``options`` call
of one randomly built action, use after use, and the ``step`` that records
that action (its canonical text found without listing, N1), each from cold
per-position caches; the listing is never made.

Reaches POSITIONS positions of each player count by seeded random play (the
engine's fast playout moves, so reaching them costs little and two versions
of the listing code list the very same positions), taking every EVERYth
position of each game. Then it adds WORST hand-made flush-heavy positions:
sampled positions whose mover's four cards are replaced by known worst
cases, the 4-card flush ``8H 6H QH QH`` of issue 24 among them (the cards
are swapped with the pile's or the other seats', so each position keeps a
whole double pack).

Each position is listed once through the public API
(``engine.rhombus.legal_actions``) with the listing cache emptied, and the
CPU time of that call is taken with ``time.process_time()``. It prints, per
group, the count, median, p90, p99 and maximum CPU per listing in
milliseconds, the mean number of actions, the slowest positions' mover
cards, the wall-clock total and the load average before and after, as the
machine is shared. The positions depend only on the seed and the fast
playout code, so two checkouts of the listing code list the same ones.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import rhombus  # noqa: E402
from engine.rhombus import builder, fastplay, rules  # noqa: E402

WORST_HANDS = (  # the mover's three table cards and hand card
    ("8H", "6H", "QH", "QH"),
    ("6H", "QH", "QH", "KH"),
    ("6S", "6S", "QS", "AS"),
    ("6D", "KD", "QD", "JD"),
    ("6C", "6C", "AC", "KC"),
    ("JH", "QH", "KH", "AH"),
    ("6H", "7H", "QH", "10H"),
    ("QC", "QC", "QD", "QD"),
)


def reached(players: int, variant: str, count: int, seed: str, every: int) -> list[rhombus.State]:
    """``count`` positions of seeded random games, every ``every``th ply (the game over excluded)."""
    rng = random.Random(f"{seed}-{variant}-{players}")
    out: list[rhombus.State] = []
    while len(out) < count:
        sim = fastplay.Sim(rhombus.new_game(rng.getrandbits(64), players=players, variant=variant))
        while (move := fastplay.random_move(sim, rng)) is not None:
            if sim.ply % every == 0:
                out.append(sim.state())
            fastplay.play(sim, move)
    return out[:count]


def with_hand(s: rhombus.State, cards: tuple[str, ...]) -> rhombus.State | None:
    """``s`` with the mover holding ``cards`` (3 table, 1 hand), swapped with where they were."""
    data = rhombus.to_json(s)
    seat = data["seats"][s.turn]
    if len(seat["table"]) + len(seat["hand"]) != 4:
        return None
    old = seat["table"] + seat["hand"]
    wanted = list(cards)
    for c in old:  # cards already held stay where they are needed
        if c in wanted:
            wanted.remove(c)
    giving = list(old)
    for c in cards:
        if c in giving:
            giving.remove(c)
    places = [data["pile"], data["discard"]] + [
        v[k] for name, v in data["seats"].items() if name != s.turn for k in ("table", "hand")
    ]
    for c in wanted:
        for place in places:
            if c in place:
                place[place.index(c)] = giving.pop()
                break
        else:
            return None
    n = len(seat["table"])
    seat["table"], seat["hand"] = list(cards[:n]), list(cards[n:])
    try:
        return rhombus.from_json(data)
    except Exception:  # noqa: BLE001 - a position the swap could not make whole is skipped
        return None


def worst_positions(base: list[rhombus.State], count: int, seed: str) -> list[rhombus.State]:
    rng = random.Random(f"{seed}-worst")
    out: list[rhombus.State] = []
    tries = 0
    while len(out) < count and tries < count * 20:
        tries += 1
        s = with_hand(rng.choice(base), WORST_HANDS[len(out) % len(WORST_HANDS)])
        if s is not None and rules.ended(s) is None and s.to_move in s.board:
            out.append(s)
    return out


def list_once(s: rhombus.State) -> tuple[float, int]:
    """CPU seconds of one listing of ``s`` (the listing cache emptied first) and its action count."""
    if COLLECT:
        gc.collect()
    rules._LISTED.clear()
    start = time.process_time()
    n = len(rhombus.legal_actions(s))
    return time.process_time() - start, n


def report(name: str, states: list[rhombus.State], top: int) -> None:
    rows = []
    for s in states:
        cpu, n = list_once(s)
        rows.append((cpu, n, s))
    cpus = sorted(r[0] * 1000 for r in rows)
    q = statistics.quantiles(cpus, n=100, method="inclusive")
    print(f"{name}: {len(rows)} positions, CPU per listing ms: median {statistics.median(cpus):.2f}, "
          f"p90 {q[89]:.2f}, p99 {q[98]:.2f}, max {cpus[-1]:.2f}; "
          f"mean {statistics.mean(r[1] for r in rows):.0f} actions, total {sum(cpus) / 1000:.2f} s")
    for cpu, n, s in sorted(rows, key=lambda r: -r[0])[:top]:
        print(f"    {cpu * 1000:8.2f} ms  {n:5d} actions  {s.turn}: {' '.join(s.table(s.turn))} | "
              f"{' '.join(s.hand(s.turn))}")


COLLECT = False


def build_once(s: rhombus.State, rng: random.Random) -> tuple[float, list[float], float, str]:
    """CPU seconds of the mover's first view's questions (``sets_and_firsts``: the card sets and
    each single card's first options), of each ``options`` call building one action of the largest
    card set (ties drawn at random), and of the ``step`` recording it; and the recorded text."""
    if COLLECT:
        gc.collect()
    rules._LISTED.clear()
    rules._STEPPED.clear()
    start = time.process_time()
    sets = builder.sets_and_firsts(s)[0]
    sets_cpu = time.process_time() - start
    most = max(len(c) for c in sets)
    cards = rng.choice([c for c in sets if len(c) == most])
    calls: list[float] = []
    done: list[str] = []
    while True:
        start = time.process_time()
        offered = builder.options(s, cards, done)
        calls.append(time.process_time() - start)
        if offered.actions and (not offered.uses or rng.random() < 0.2):
            text = rng.choice(offered.actions)
            break
        if not offered.uses:
            text = ", ".join(done)
            break
        done.append(rng.choice(offered.uses))
    start = time.process_time()
    played = rhombus.step(s, text)[1]
    return sets_cpu, calls, time.process_time() - start, played.text


def _figures(ms: list[float]) -> str:
    ms = sorted(ms)
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    return f"median {statistics.median(ms):.2f}, p90 {q[89]:.2f}, p99 {q[98]:.2f}, max {ms[-1]:.2f}"


def report_steps(name: str, states: list[rhombus.State], top: int, seed: str) -> None:
    rng = random.Random(f"{seed}-steps-{name}")
    rows = [(build_once(s, rng), s) for s in states]
    sets = [r[0][0] * 1000 for r in rows]
    calls = [c * 1000 for r in rows for c in r[0][1]]
    steps = [r[0][2] * 1000 for r in rows]
    print(f"{name}: {len(rows)} positions, CPU ms: sets and firsts {_figures(sets)}; "
          f"options ({len(calls)} calls) {_figures(calls)}; step {_figures(steps)}")
    for (sets_cpu, call_cpus, step_cpu, text), s in sorted(rows, key=lambda r: -max(r[0][1]))[:top]:
        print(f"    options max {max(call_cpus) * 1000:7.2f} ms, sets {sets_cpu * 1000:6.2f}, step {step_cpu * 1000:6.2f}  "
              f"{s.turn}: {' '.join(s.table(s.turn))} | {' '.join(s.hand(s.turn))}  -> {text}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=2000, help="positions per player count (default 2000)")
    p.add_argument("--seed", default="listing")
    p.add_argument("--variant", default="formation", choices=("classic", "formation"))
    p.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=(2, 4))
    p.add_argument("--every", type=int, default=3, help="take every EVERYth ply of a game (default 3)")
    p.add_argument("--worst", type=int, default=24, help="hand-made flush positions a player count (Formation only; default 24)")
    p.add_argument("--top", type=int, default=5, help="slowest positions shown per group (default 5)")
    p.add_argument("--steps", action="store_true", help="time the live page's step-by-step questions, not the listing")
    p.add_argument("--collect", action="store_true",
                   help="run the garbage collector's full pass before each position, outside the timing: a full pass "
                        "that lands in a timed call costs tens of ms for the whole process's heap, not for the call")
    args = p.parse_args(argv)
    global COLLECT
    COLLECT = args.collect
    measure = (lambda name, states, top: report_steps(name, states, top, args.seed)) if args.steps else report
    load_before = os.getloadavg()
    wall = time.perf_counter()
    print(f"engine at {Path(rhombus.__file__).resolve().parent}; "
          f"{'full garbage collection between positions' if args.collect else 'garbage collector as usual'}")
    samples = {players: reached(players, args.variant, args.positions, args.seed, args.every)
               for players in args.players}
    for players, states in samples.items():
        measure(f"{args.variant}, {players} players, reached", states, args.top)
    if args.variant == "formation" and args.worst:
        for players, states in samples.items():
            measure(f"{args.variant}, {players} players, worst-case flushes",
                   worst_positions(states, args.worst, args.seed), args.top)
    load_after = os.getloadavg()
    print(f"wall {time.perf_counter() - wall:.1f} s; load average (1, 5, 15 min) before "
          f"{', '.join(f'{x:.2f}' for x in load_before)}, after {', '.join(f'{x:.2f}' for x in load_after)}")


if __name__ == "__main__":
    main()

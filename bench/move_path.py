"""A live move's synchronous work, in one process: CPU, SQL statements and
Redis commands per move (issue 24).

    .venv/bin/python bench/move_path.py [--games 30] [--rounds 3] [--rules rhombus] [--players 4]

Needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis), as bench/live_play.py,
and like it works in a database of its own (``aceweb_bench_moves``) and Redis
database 11 (flushed). It plays ``--games`` Ace in the Hole games to the end,
doing for each move what the game sockets' database threads do for it:

1. the mover's socket: ``submit``, its session checked with the game's load,
   and the mover's own view (``games.consumers.GameConsumer._submitted``),
   encoded as the frame;
2. the other seat's socket: the game loaded and its view built and encoded
   (``GameConsumer._view``), as when the group message reaches it.

No daphne, no websocket and no channel layer: what is left is the part of a
move's CPU that does not depend on the load of the machine, timed with the
process's CPU clock (``time.process_time``), best and worst of ``--rounds``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import create_games, run_on_services, say  # noqa: E402

DEFAULT_DB_NAME = "aceweb_bench_moves"
DEFAULT_REDIS_DB = 11


class Counts:
    """SQL statements (a database execute wrapper) and Redis commands (redis-py's
    ``execute_command``, the sockets' synchronous client) while counting."""

    def __init__(self) -> None:
        self.sql: Counter[str] = Counter()
        self.redis: Counter[str] = Counter()
        self.on = False  # only the timed part of a move is counted

    def statement(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if self.on:
            self.sql[sql.split(None, 1)[0].upper()] += 1
        return execute(sql, params, many, context)

    def install_redis(self) -> None:
        import redis

        original = redis.Redis.execute_command
        counts, self_ = self.redis, self

        def counted(client: Any, *args: Any, **options: Any) -> Any:
            if self_.on:
                counts[str(args[0]).upper()] += 1
            return original(client, *args, **options)

        redis.Redis.execute_command = counted  # type: ignore[method-assign]


def play_round(games: int, seed: str, counts: Counts, rules: str = "ace-in-the-hole",
               players: int = 2) -> tuple[int, float]:
    """Play GAMES new games of RULES to the end; (moves, CPU seconds spent on them)."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session
    from django.db import connection

    from games import consumers, moving, payloads, signins, starting, store

    User = get_user_model()
    specs = create_games(games, seed, players=players, rules=rules)
    sessions = {s.session_key: s.get_decoded() for s in Session.objects.filter(
        session_key__in=[c for spec in specs for c in spec.cookies.values()])}
    players = {}
    for spec in specs:
        for seat, key in spec.cookies.items():
            players[(spec.id, seat)] = (key, User.objects.get(pk=int(sessions[key]["_auth_user_id"])))
    evidence: dict[str, Any] = {}
    moves, cpu = 0, 0.0
    rng = random.Random(seed)
    states = {spec.id: payloads.view_for(store.load(spec.id), None) for spec in specs}
    running = [spec for spec in specs]
    with connection.execute_wrapper(counts.statement):
        while running:
            for spec in list(running):
                state = states[spec.id]
                seat = state["game"]["clock"]["running"] or state["game"]["seats"][0]
                key, user = players[(spec.id, seat)]
                game = store.load(spec.id)
                mover_view = payloads.view_for(game, user)
                # A Rhombus view lists no actions (issue 24): the rules do, outside the timed part.
                legal = mover_view.get("legal")
                if legal is None and game.running:
                    legal = [str(a) for a in game.rules.legal_actions(payloads.state_of(game))]
                if not legal or state["game"]["status"] != "running":
                    running.remove(spec)
                    continue
                action = rng.choice(legal)
                ply = mover_view["ply"]
                counts.on = True
                began = time.process_time()

                def judge(read: Any, key: str = key, user_id: int = user.pk) -> None:
                    ok, evidence[key] = signins.still_signs_in(key, user_id, evidence.get(key), read)
                    assert ok

                session = store.SessionCheck(key, user.pk, judge)  # as GameConsumer._submitted
                payload, _messages = consumers._holding_notifications(
                    "en", lambda: payloads.view_for(moving.submit(spec.id, user, ply, action, session=session),
                                                    user, since=ply))
                json.dumps({"type": "update", **payload}, separators=(",", ":"))
                for other in spec.seats:
                    if other != seat:
                        _, watcher = players[(spec.id, other)]
                        actions_from = None if rules == starting.ACE else ply  # as GameConsumer._view
                        view = payloads.view_for(store.load(spec.id, actions_from=actions_from), watcher, since=ply)
                        json.dumps({"type": "update", **view}, separators=(",", ":"))
                cpu += time.process_time() - began
                counts.on = False
                moves += 1
                states[spec.id] = payload
                if payload["game"]["status"] != "running":
                    running.remove(spec)
    return moves, cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games a round (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each of new games (default 3)")
    parser.add_argument("--rules", default="ace-in-the-hole",
                        help="the game played, as games.starting.setups names it (default ace-in-the-hole)")
    parser.add_argument("--players", type=int, default=2, help="players a game (default 2)")
    parser.add_argument("--db-name", default=DEFAULT_DB_NAME)
    parser.add_argument("--redis-db", type=int, default=DEFAULT_REDIS_DB)
    args = parser.parse_args(argv)

    def bench(database_url: str, redis_url: str) -> Any:
        from games import bots

        bots.bot_levels()  # the bots read once, as a running process has them
        results = []
        for number in range(args.rounds + 1):
            counts = Counts()
            if number == args.rounds:  # a last round only to count, outside the timed ones
                counts.install_redis()
            moves, cpu = play_round(args.games, f"{number}-{random.random()}", counts, args.rules, args.players)
            if number < args.rounds:
                results.append(1000 * cpu / moves)
                say(f"round {number + 1}: {moves} moves, {results[-1]:.3f} ms CPU a move")
        return Report(results, moves, counts)

    return run_on_services(args.db_name, args.redis_db, False, False, bench)


class Report:
    def __init__(self, per_move: list[float], moves: int, counts: Counts) -> None:
        self.per_move, self.moves, self.counts = per_move, moves, counts
        self.ok = True

    def report(self) -> str:
        def per(counter: Counter[str]) -> str:
            parts = [f"{name} {n / self.moves:.2f}" for name, n in counter.most_common()]
            return f"{sum(counter.values()) / self.moves:.2f} ({', '.join(parts)})"

        return "\n".join([
            f"CPU ms a move (mover's session check, submit and view, the other seat's load and view): "
            f"best {min(self.per_move):.3f}, worst {max(self.per_move):.3f}",
            f"SQL statements a move: {per(self.counts.sql)}",
            f"Redis commands a move: {per(self.counts.redis)}",
        ])


if __name__ == "__main__":
    sys.exit(main())

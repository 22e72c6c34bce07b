"""Two players doing the same lobby thing at the same instant, on their own
database connections: what each got back (a Game or the LobbyRefusal)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection

from ladder import inputs


def at_once(act: Callable[[Any], Any], *users: Any) -> dict[str, Any]:
    """Run ``act(user)`` for every user in its own thread, all let go together."""
    barrier = threading.Barrier(len(users))
    results: dict[str, Any] = {}

    def run(user: Any) -> None:
        barrier.wait()
        try:
            results[user.username] = act(user)
        except inputs.LobbyRefusal as refusal:
            results[user.username] = refusal
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    return results

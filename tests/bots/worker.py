"""A Celery worker for the bot tests: `python tests/bots/worker.py worker ...`.

With ACEWEB_TEST_SLOW_BOT=<seconds>, the engine's ``bots.choose`` (not the
site's code) first sleeps that long, so that a test can kill the worker while
it is surely in the middle of a bot move.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import engine.bots  # noqa: E402

SLOW = float(os.environ.get("ACEWEB_TEST_SLOW_BOT", "0") or 0)
if SLOW:
    real_choose = engine.bots.choose

    def slow_choose(*args: Any, **kwargs: Any) -> Any:
        time.sleep(SLOW)
        return real_choose(*args, **kwargs)

    engine.bots.choose = slow_choose  # type: ignore[assignment]

from aceweb.celery import app  # noqa: E402

if __name__ == "__main__":
    app.worker_main(sys.argv[1:])

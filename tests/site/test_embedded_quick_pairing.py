"""Quick pairing in the embedded mode (no REDIS_URL: Celery runs tasks in the caller)
pairs the players and logs nothing about a broker host."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
from django.db import connection

from tests.helpers import ROOT, require_service, wait_for_other_sessions_to_end, worker_database_url

# With a root handler, as daphne's command line sets one up (logging.basicConfig).
PAIR = """
import django, logging
logging.basicConfig(level=logging.INFO)
django.setup()
from django.conf import settings
from django.contrib.auth import get_user_model
from games.models import Game
from ladder import matchmaking
assert settings.CELERY_TASK_ALWAYS_EAGER
users = get_user_model().objects
matchmaking.join(users.get(username="alice"), "5+3")
matchmaking.join(users.get(username="bob"), "5+3")
print("games:", Game.objects.filter(status="running").count())
"""


@pytest.mark.django_db(transaction=True)
def test_quick_pairing_without_redis_logs_no_missing_hostname(alice: Any, bob: Any) -> None:
    require_service("DATABASE_URL", "the players in the test database")
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DJANGO_SETTINGS_MODULE="aceweb.settings", DATABASE_URL=worker_database_url(connection))
    process = subprocess.run([sys.executable, "-c", PAIR], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=120)
    wait_for_other_sessions_to_end(connection)
    assert process.returncode == 0, process.stderr
    assert "games: 1" in process.stdout
    assert "No hostname was supplied" not in process.stderr

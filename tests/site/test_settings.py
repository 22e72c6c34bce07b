"""The one settings module picks real services or local fallbacks from the environment.

Each case runs in a fresh interpreter, because settings are read once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONFIG_VARIABLES = ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")

PROBE = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "layer": s.CHANNEL_LAYERS["default"]["BACKEND"],
    "layer_hosts": s.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "eager": s.CELERY_TASK_ALWAYS_EAGER,
    "broker": s.CELERY_BROKER_URL,
    "results": getattr(s, "CELERY_RESULT_BACKEND", None),
    "db_engine": s.DATABASES["default"]["ENGINE"],
    "db_name": str(s.DATABASES["default"]["NAME"]),
    "allowed_hosts": s.ALLOWED_HOSTS,
    "debug": s.DEBUG,
}))
"""


def start_django(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in CONFIG_VARIABLES}
    clean.update(DJANGO_SETTINGS_MODULE="aceweb.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def settings_with(**env: str) -> tuple[dict[str, Any], str]:
    process = start_django(**env)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout), process.stderr


def test_without_redis_it_falls_back_to_in_process_and_says_so() -> None:
    s, log = settings_with()
    assert s["layer"] == "channels.layers.InMemoryChannelLayer"
    assert s["eager"] is True
    assert "REDIS_URL not set" in log
    assert "CELERY_TASK_ALWAYS_EAGER=True" in log


def test_with_redis_it_uses_it_for_channels_and_celery() -> None:
    url = "redis://127.0.0.1:6379/5"
    s, log = settings_with(REDIS_URL=url)
    assert s["layer"] == "aceweb.layers.RedisChannelLayer"
    # No client-side read timeout: redis-py 8's 5 s default breaks the layer's BZPOPMIN.
    # A pool past redis-py's 100 connections: tests/games/test_channel_layer.py.
    assert s["layer_hosts"] == [{"address": url, "socket_timeout": None, "max_connections": 2000}]
    assert s["eager"] is False
    assert s["broker"] == url
    assert s["results"] == url
    assert "REDIS_URL not set" not in log


def test_without_database_url_it_uses_sqlite_in_the_project() -> None:
    s, log = settings_with()
    assert s["db_engine"] == "django.db.backends.sqlite3"
    assert s["db_name"] == str(ROOT / "db.sqlite3")
    assert "DATABASE_URL not set" in log


def test_with_a_postgres_database_url_it_uses_postgresql() -> None:
    s, log = settings_with(DATABASE_URL="postgres://someone@db.example:5432/aceweb")
    assert s["db_engine"] == "django.db.backends.postgresql"
    assert s["db_name"] == "aceweb"
    assert "DATABASE_URL not set" not in log


def test_local_defaults_are_debug_on_localhost() -> None:
    s, _ = settings_with()
    assert s["debug"] is True
    assert s["allowed_hosts"] == ["127.0.0.1", "localhost"]


def test_allowed_hosts_is_a_comma_list() -> None:
    s, _ = settings_with(ALLOWED_HOSTS="ace.example, www.ace.example,")
    assert s["allowed_hosts"] == ["ace.example", "www.ace.example"]


def test_it_refuses_the_built_in_secret_key_without_debug() -> None:
    process = start_django(DEBUG="false")
    assert process.returncode != 0
    assert "ImproperlyConfigured" in process.stderr
    assert "SECRET_KEY" in process.stderr


def test_with_a_secret_key_debug_can_be_off() -> None:
    s, _ = settings_with(DEBUG="false", SECRET_KEY="x" * 50)
    assert s["debug"] is False


def test_it_rejects_a_debug_value_it_cannot_read() -> None:
    process = start_django(DEBUG="maybe")
    assert process.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in process.stderr

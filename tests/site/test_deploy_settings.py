"""Production settings: secure once DEBUG is off, with switches for proxies and plain http.

Each case runs in a fresh interpreter, because settings are read once per process.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# Everything that changes the settings under test: dropped from the inherited environment.
CONFIG_VARIABLES = (
    "DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "HTTPS",
    "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
)
PRODUCTION = {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "ace.example"}

# A request through the whole middleware stack, with no database needed (a 404).
PROBE = """
import json, django
django.setup()
from django.conf import settings as s
from django.test import Client
client = Client(HTTP_HOST="ace.example")
plain = client.get("/no-such-page/")
proxied = client.get("/no-such-page/", HTTP_X_FORWARDED_PROTO="https")
print(json.dumps({
    "secure_cookies": [s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE],
    "redirect": s.SECURE_SSL_REDIRECT,
    "hsts": s.SECURE_HSTS_SECONDS,
    "proxy_header": s.SECURE_PROXY_SSL_HEADER,
    "plain": [plain.status_code, plain.headers.get("Location")],
    "proxied": [proxied.status_code, proxied.headers.get("Strict-Transport-Security")],
}))
"""


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in CONFIG_VARIABLES}
    clean.update(DJANGO_SETTINGS_MODULE="aceweb.settings", **env)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=120)


def settings_with(**env: str) -> dict[str, Any]:
    process = run(["-c", PROBE], **env)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout.splitlines()[-1])


def test_check_deploy_is_clean_with_only_debug_off_a_secret_key_and_a_host() -> None:
    process = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert process.returncode == 0, process.stdout + process.stderr
    assert "System check identified no issues (0 silenced)" in process.stdout
    assert "security." not in process.stdout + process.stderr


def test_with_debug_off_it_is_https_only() -> None:
    s = settings_with(**PRODUCTION)
    assert s["secure_cookies"] == [True, True]
    assert s["redirect"] is True
    assert s["hsts"] >= 31_536_000
    assert s["plain"] == [301, "https://ace.example/no-such-page/"]


def test_behind_a_tls_proxy_it_trusts_the_proxy_header() -> None:
    s = settings_with(**PRODUCTION, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https")
    assert s["proxy_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    status, hsts = s["proxied"]
    assert status == 404  # served, not redirected again
    assert hsts == "max-age=31536000; includeSubDomains; preload"
    assert s["plain"][0] == 301  # a request that reached the proxy over http is still sent to https


def test_a_proxy_that_redirects_itself_can_turn_the_redirect_off() -> None:
    s = settings_with(**PRODUCTION, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto", SECURE_SSL_REDIRECT="false")
    assert s["redirect"] is False
    assert s["plain"] == [404, None]
    assert s["secure_cookies"] == [True, True]


def test_https_false_serves_plain_http_with_debug_off() -> None:
    s = settings_with(**PRODUCTION, HTTPS="false")
    assert s["secure_cookies"] == [False, False]
    assert (s["redirect"], s["hsts"]) == (False, 0)
    assert s["plain"] == [404, None]


def test_with_debug_on_it_serves_plain_http_as_make_run_and_the_tests_do() -> None:
    s = settings_with(DEBUG="1", ALLOWED_HOSTS="ace.example")
    assert s["secure_cookies"] == [False, False]
    assert (s["redirect"], s["hsts"]) == (False, 0)
    assert s["plain"][0] == 404


def test_it_refuses_a_proxy_header_without_a_name() -> None:
    process = run(["-c", PROBE], **PRODUCTION, SECURE_PROXY_SSL_HEADER=": https")
    assert process.returncode != 0
    assert "SECURE_PROXY_SSL_HEADER" in process.stderr

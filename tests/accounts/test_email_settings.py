"""Account e-mail goes to the console unless an SMTP server is configured.

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
EMAIL_VARIABLES = ("EMAIL_URL", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD",
                   "EMAIL_USE_TLS", "EMAIL_USE_SSL", "DEFAULT_FROM_EMAIL")

PROBE = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({name: getattr(s, name) for name in (
    "EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS", "EMAIL_USE_SSL", "LOGIN_URL")}))
"""


def start_django(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in EMAIL_VARIABLES}
    clean.update(DJANGO_SETTINGS_MODULE="aceweb.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def settings_with(**env: str) -> dict[str, Any]:
    process = start_django(**env)
    assert process.returncode == 0, process.stderr
    return dict(json.loads(process.stdout))


def test_without_a_server_mail_is_printed_to_the_console() -> None:
    s = settings_with()
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert s["LOGIN_URL"] == "account_login"


def test_email_url_selects_smtp_with_its_parts() -> None:
    s = settings_with(EMAIL_URL="smtp+tls://mailer:p%40ss@mail.example.org")
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"]) == ("mail.example.org", 587)
    assert (s["EMAIL_HOST_USER"], s["EMAIL_HOST_PASSWORD"]) == ("mailer", "p@ss")
    assert (s["EMAIL_USE_TLS"], s["EMAIL_USE_SSL"]) == (True, False)


def test_smtps_url_means_ssl_on_port_465() -> None:
    s = settings_with(EMAIL_URL="smtps://mail.example.org")
    assert (s["EMAIL_PORT"], s["EMAIL_USE_TLS"], s["EMAIL_USE_SSL"]) == (465, False, True)


def test_email_host_selects_smtp_too() -> None:
    s = settings_with(EMAIL_HOST="localhost", EMAIL_PORT="2525", EMAIL_USE_TLS="yes")
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"], s["EMAIL_USE_TLS"]) == ("localhost", 2525, True)


def test_a_mistyped_email_url_stops_the_site_from_starting() -> None:
    process = start_django(EMAIL_URL="http://mail.example.org")
    assert process.returncode != 0
    assert "EMAIL_URL scheme 'http'" in process.stderr


def test_smtp_ssl_is_another_name_for_smtps() -> None:
    s = settings_with(EMAIL_URL="smtp+ssl://mailer:secret@mail.example.org")
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"], s["EMAIL_USE_TLS"], s["EMAIL_USE_SSL"]) == (
        "mail.example.org", 465, False, True)


def test_email_url_can_name_the_console_or_the_in_memory_backend() -> None:
    assert settings_with(EMAIL_URL="console://")["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert settings_with(EMAIL_URL="locmem://")["EMAIL_BACKEND"] == "django.core.mail.backends.locmem.EmailBackend"


def test_email_url_wins_over_email_host() -> None:
    s = settings_with(EMAIL_URL="console://", EMAIL_HOST="mail.example.org")
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"

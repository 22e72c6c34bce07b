"""The session store: Django's database sessions, looking up only keys Django could have issued."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore

KEY_CHARS = frozenset(VALID_KEY_CHARS)


class SessionStore(DatabaseSessionStore):
    """A ``sessionid`` cookie is whatever the client sends, and a quoted cookie
    may even spell NUL (``"\\000"``), which PostgreSQL cannot compare: every
    page and the websocket handshakes would answer 500. Django only checks a
    key's length; a key with characters Django never puts in one is no
    session, as an unknown key is (the visitor is anonymous and the cookie is
    cleared), and it never reaches a query."""

    def _validate_session_key(self, key: Any) -> bool:
        return bool(super()._validate_session_key(key)) and set(key) <= KEY_CHARS

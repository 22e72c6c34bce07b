from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from notify.keys import new_pair
from tests.notify.receiver import Receiver, receiving

VAPID = new_pair()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """The tests' own push service on 127.0.0.1."""
    with receiving() as receiver:
        yield receiver


@pytest.fixture
def push_settings(settings: Any) -> Any:
    """Push on, with a VAPID pair, and plain http let through to 127.0.0.1 (the receiver)."""
    settings.WEBPUSH_VAPID_PUBLIC_KEY = VAPID["WEBPUSH_VAPID_PUBLIC_KEY"]
    settings.WEBPUSH_VAPID_PRIVATE_KEY = VAPID["WEBPUSH_VAPID_PRIVATE_KEY"]
    settings.WEBPUSH_HTTP_HOSTS = ["127.0.0.1"]
    settings.WEBPUSH_SUBJECT = "mailto:push-tests@example.org"
    settings.SITE_URL = "https://aceweb.example"
    return settings

"""Web push end to end on the server: notify.notices.send, after commit, queues
a task that a real Celery worker sends to the tests' own push service."""

from __future__ import annotations

import json
import queue
from pathlib import Path
from typing import Any

import pytest

from notify import notices
from tests.helpers import client_for
from tests.notify.mails import choose
from tests.notify.receiver import Receiver

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("push_settings")]


def test_a_notice_is_pushed_by_the_worker_and_a_kind_with_push_off_is_not(
        alice: Any, receiver: Receiver, push_worker: Path) -> None:
    client = client_for(alice)
    client.post("/notifications/push/subscribe/", json.dumps(receiver.subscription("alice")),
                content_type="application/json")
    choose(alice, "challenge", push=False)
    notices.send(alice.pk, "challenge", "challenge:3", {"challenger": "bob", "time_control": "5+3", "title": "Ace in the Hole"}, "/lobby/")  # push off: not queued
    notices.send(alice.pk, "turn", "game:7", {"game": 7, "title": "Ace in the Hole", "opponents": ["bob"]}, "/games/7/")
    try:
        pushed = receiver.take(timeout=90)
    except queue.Empty:
        pytest.fail("no push arrived: " + push_worker.read_text()[-3000:])
    assert receiver.payload(pushed)["title"] == "Your turn"
    # The worker takes tasks in order, one at a time: a push for the challenge would have come first.
    assert receiver.pushes.empty()


def test_nothing_is_queued_for_a_player_without_a_subscription(alice: Any, receiver: Receiver,
                                                                push_worker: Path) -> None:
    notices.send(alice.pk, "turn", "game:7", {"game": 7, "title": "Ace in the Hole", "opponents": ["bob"]}, "/games/7/")
    client_for(alice).post("/notifications/push/subscribe/", json.dumps(receiver.subscription("later")),
                           content_type="application/json")
    notices.send(alice.pk, "turn", "game:8", {"game": 8, "title": "Ace in the Hole", "opponents": ["carol"]}, "/games/8/")
    assert receiver.payload(receiver.take(timeout=90))["tag"] == "turn:game:8"
    assert receiver.pushes.empty()

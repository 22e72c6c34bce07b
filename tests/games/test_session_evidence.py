"""The per-action session check (games.signins.still_signs_in) answers from one
query while nothing has changed, and judges again, as Django does, whatever
has: each way a login ends after a good check is caught by the next one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from importlib import import_module
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.models import Session
from django.utils import timezone

from games import signins
from tests.games.conftest import session_cookie

pytestmark = pytest.mark.django_db


def _store(key: str) -> Any:
    return import_module(settings.SESSION_ENGINE).SessionStore(key)


def delete_session(key: str, user: Any, other: Any) -> None:
    Session.objects.filter(session_key=key).delete()


def expire_session(key: str, user: Any, other: Any) -> None:
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))


def deactivate_user(key: str, user: Any, other: Any) -> None:
    type(user).objects.filter(pk=user.pk).update(is_active=False)


def change_password_quietly(key: str, user: Any, other: Any) -> None:
    """As a script or raw SQL would: no signal, so no socket is told."""
    type(user).objects.filter(pk=user.pk).update(password=make_password("another-password"))


def session_now_names_someone_else(key: str, user: Any, other: Any) -> None:
    store = _store(key)
    store["_auth_user_id"] = str(other.pk)
    store.save()


ENDINGS: list[Callable[[str, Any, Any], None]] = [
    delete_session, expire_session, deactivate_user, change_password_quietly,
    session_now_names_someone_else,
]


def test_a_good_session_is_judged_once_then_recognised(alice: Any) -> None:
    key = session_cookie(alice)
    still, evidence = signins.still_signs_in(key, alice.pk, None)
    assert still and evidence is not None
    assert signins.still_signs_in(key, alice.pk, evidence) == (True, evidence)


def test_a_session_is_never_good_for_another_user(alice: Any, bob: Any) -> None:
    key = session_cookie(alice)
    _, evidence = signins.still_signs_in(key, alice.pk, None)
    assert signins.still_signs_in(key, bob.pk, evidence) == (False, None)
    assert signins.still_signs_in(None, alice.pk, evidence) == (False, None)


@pytest.mark.parametrize("end", ENDINGS, ids=lambda end: end.__name__)
def test_a_login_that_ended_after_a_good_check_fails_the_next(end: Any, alice: Any, bob: Any) -> None:
    key = session_cookie(alice)
    still, evidence = signins.still_signs_in(key, alice.pk, None)
    assert still
    end(key, alice, bob)
    assert not signins.signs_in(key, alice.pk)  # Django agrees it ended
    assert signins.still_signs_in(key, alice.pk, evidence) == (False, None)


def test_a_session_saved_again_unchanged_in_meaning_is_judged_again_and_kept(alice: Any) -> None:
    """New session data (here one more key) is new evidence: judged afresh,
    found good, and remembered in place of the old."""
    key = session_cookie(alice)
    _, evidence = signins.still_signs_in(key, alice.pk, None)
    store = _store(key)
    store["theme"] = "dark"
    store.save()
    still, renewed = signins.still_signs_in(key, alice.pk, evidence)
    assert still and renewed is not None and renewed != evidence

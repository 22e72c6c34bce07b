"""Which language a person is spoken to in: the browser's, the menu's, the saved one (issue 23)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils.translation import get_language, gettext

from preferences.languages import language_from_scope, language_of, save_language, speaking
from preferences.models import Preference


def scope(user: Any = None, headers: list[tuple[bytes, bytes]] | None = None, **extra: Any) -> dict[str, Any]:
    """A websocket handshake's scope as Channels' AuthMiddlewareStack leaves it."""
    return {"type": "websocket", "path": "/ws/", "headers": headers or [], "user": user, **extra}


# --- preferences.languages --------------------------------------------------


@pytest.mark.django_db
def test_a_player_without_a_saved_language_follows_the_browser(alice: Any) -> None:
    assert language_of(alice) is None
    save_language(alice, "")
    assert language_of(alice) is None


@pytest.mark.django_db
def test_the_saved_language_is_read_once_per_user_object(alice: Any, django_assert_num_queries: Any) -> None:
    Preference.objects.create(user=alice, language="ru")
    with django_assert_num_queries(1):
        assert language_of(alice) == "ru"
        assert language_of(alice) == "ru"


@pytest.mark.django_db
def test_saving_a_language_replaces_the_remembered_one(alice: Any) -> None:
    save_language(alice, "de")
    assert language_of(alice) == "de"
    save_language(alice, "es")
    assert language_of(alice) == "es"
    assert Preference.objects.get(user=alice).language == "es"


@pytest.mark.django_db
def test_a_visitor_has_no_saved_language() -> None:
    from django.contrib.auth.models import AnonymousUser

    assert language_of(AnonymousUser()) is None
    assert language_of(None) is None


@pytest.mark.django_db
def test_speaking_translates_in_the_players_language_and_then_restores(alice: Any) -> None:
    save_language(alice, "de")
    before = get_language()
    with speaking(alice) as language:
        assert language == "de"
        assert get_language() == "de"
        assert gettext("Password") == "Passwort"  # Django's own German catalog
    assert get_language() == before


@pytest.mark.django_db
def test_speaking_uses_the_fallback_then_the_sites_language(alice: Any) -> None:
    with speaking(alice, fallback="ru-RU"):
        assert get_language() == "ru"
    with speaking(alice, fallback="xx"):
        assert get_language() == "en"
    with speaking(None):
        assert get_language() == "en"


@pytest.mark.django_db
def test_a_socket_speaks_the_saved_language_over_cookie_and_browser(alice: Any) -> None:
    save_language(alice, "ru")
    handshake = scope(alice, [(b"cookie", b"django_language=es"), (b"accept-language", b"de")])
    assert language_from_scope(handshake) == "ru"


@pytest.mark.django_db
def test_a_visitors_socket_speaks_the_language_cookie_over_the_browser() -> None:
    from django.contrib.auth.models import AnonymousUser

    handshake = scope(AnonymousUser(), [(b"cookie", b"sessionid=x; django_language=es"),
                                        (b"accept-language", b"de,en;q=0.5")])
    assert language_from_scope(handshake) == "es"
    # Channels' CookieMiddleware leaves the parsed cookies in the scope: those count.
    assert language_from_scope(scope(AnonymousUser(), cookies={"django_language": "ru"})) == "ru"


@pytest.mark.django_db
def test_a_socket_without_cookie_follows_accept_language(alice: Any) -> None:
    assert language_from_scope(scope(alice, [(b"accept-language", b"fr;q=0.9, de-AT;q=0.8, en;q=0.1")])) == "de"
    assert language_from_scope(scope(alice, [(b"accept-language", b"fr, ja")])) is None
    assert language_from_scope(scope(None, [(b"cookie", b"django_language=xx")])) is None

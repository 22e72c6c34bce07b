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


# --- pages: Accept-Language, the menu, the saved language -------------------


def html_lang(response: Any) -> str:
    text = response.content.decode()
    start = text.index('<html lang="') + len('<html lang="')
    return text[start:text.index('"', start)]


@pytest.mark.django_db
def test_a_german_browser_gets_a_german_page(client: Client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    assert html_lang(response) == "de"
    assert response["Content-Language"] == "de"
    assert "Accept-Language" in response["Vary"]


@pytest.mark.django_db
def test_the_footer_offers_each_language_named_in_itself(client: Client) -> None:
    html = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<form class="language-menu" method="post" action="/i18n/setlang/">' in html
    assert '<input type="hidden" name="next" value="/tournaments/">' in html
    for code, name in [("en", "English"), ("de", "Deutsch"), ("ru", "Русский")]:
        assert f'name="language" value="{code}" lang="{code}">{name}</button>' in html
    assert 'name="language" value="es" lang="es" aria-current="true">Español</button>' in html


@pytest.mark.django_db
def test_a_visitors_choice_is_remembered_by_cookie_over_the_browser(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/tournaments/"})
    assert response.status_code == 302
    assert response["Location"] == "/tournaments/"
    assert response.cookies["django_language"].value == "ru"
    assert html_lang(client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="de")) == "ru"


@pytest.mark.django_db
def test_the_menu_refuses_a_language_the_site_does_not_speak(client: Client, alice: Any) -> None:
    client.force_login(alice)
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert not Preference.objects.filter(user=alice).exists()
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "de"


@pytest.mark.django_db
def test_a_players_choice_in_the_menu_is_saved_on_their_account(client: Client, alice: Any) -> None:
    client.force_login(alice)
    client.post("/i18n/setlang/", {"language": "es", "next": "/"})
    assert Preference.objects.get(user=alice).language == "es"


@pytest.mark.django_db
def test_the_saved_language_wins_over_cookie_and_browser(client: Client, alice: Any) -> None:
    save_language(alice, "ru")
    client.force_login(alice)
    client.cookies["django_language"] = "es"
    response = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="de")
    assert html_lang(response) == "ru"
    assert response["Content-Language"] == "ru"


@pytest.mark.django_db
def test_signing_in_puts_the_saved_language_in_the_cookie(client: Client, alice: Any) -> None:
    save_language(alice, "de")
    response = client.post("/accounts/login/", {"login": "alice", "password": "password"},
                           HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "de"


@pytest.mark.django_db
def test_signing_in_without_a_saved_language_leaves_the_cookie_alone(client: Client, alice: Any) -> None:
    response = client.post("/accounts/login/", {"login": "alice", "password": "password"})
    assert response.status_code == 302
    assert "django_language" not in response.cookies


# --- the preferences page -----------------------------------------------------


@pytest.mark.django_db
def test_the_preferences_page_is_for_signed_in_players(client: Client) -> None:
    response = client.get("/account/preferences/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_a_players_own_profile_links_to_the_preferences(client: Client, alice: Any, bob: Any) -> None:
    client.force_login(alice)
    assert 'href="/account/preferences/"' in client.get("/@/alice/").content.decode()
    assert 'href="/account/preferences/"' not in client.get("/@/bob/").content.decode()


@pytest.mark.django_db
def test_the_preferences_form_offers_the_browsers_choice_and_each_language(client: Client, alice: Any) -> None:
    client.force_login(alice)
    html = client.get("/account/preferences/").content.decode()
    assert "The browser&#x27;s choice" in html
    assert 'value="" required' not in html
    assert 'name="language" value="" id="id_language_0" checked' in html
    assert '<label for="id_language_4" lang="ru"><input type="radio" name="language" value="ru"' in html


@pytest.mark.django_db
def test_saving_a_language_on_the_preferences_page(client: Client, alice: Any) -> None:
    client.force_login(alice)
    response = client.post("/account/preferences/", {"language": "de"}, follow=True)
    assert Preference.objects.get(user=alice).language == "de"
    assert client.cookies["django_language"].value == "de"
    assert html_lang(response) == "de"
    assert 'value="de" id="id_language_2" checked' in response.content.decode()


@pytest.mark.django_db
def test_choosing_the_browsers_language_again_forgets_the_cookie(client: Client, alice: Any) -> None:
    save_language(alice, "ru")
    client.force_login(alice)
    client.cookies["django_language"] = "ru"
    response = client.post("/account/preferences/", {"language": ""})
    assert Preference.objects.get(user=alice).language == ""
    assert response.cookies["django_language"]["max-age"] == 0
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == "es"


@pytest.mark.django_db
def test_the_preferences_form_refuses_an_unknown_language(client: Client, alice: Any) -> None:
    client.force_login(alice)
    response = client.post("/account/preferences/", {"language": "fr"})
    assert response.status_code == 200
    assert "Select a valid choice." in response.content.decode()
    assert not Preference.objects.filter(user=alice).exists()


# --- time zones ---------------------------------------------------------------


@pytest.fixture
def winter_cup(alice: Any) -> Any:
    from datetime import datetime, timezone

    from tournaments.models import Tournament

    return Tournament.objects.create(name="Winter Cup", organizer=alice, pause_seconds=0, time_control="5+3",
                                     starts_at=datetime(2031, 1, 15, 12, 0, tzinfo=timezone.utc))


@pytest.mark.django_db
def test_a_tournament_start_is_shown_in_the_viewers_zone_and_named(client: Client, winter_cup: Any) -> None:
    client.cookies["tz"] = "Europe/Berlin"
    html = client.get(winter_cup.get_absolute_url()).content.decode()
    assert "15 Jan 2031 13:00 Europe/Berlin</time>" in html
    client.cookies["tz"] = "Asia/Tokyo"
    assert "15 Jan 2031 21:00 Asia/Tokyo</time>" in client.get(winter_cup.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_without_a_valid_zone_times_are_utc_and_say_so(client: Client, winter_cup: Any) -> None:
    assert "15 Jan 2031 12:00 UTC</time>" in client.get(winter_cup.get_absolute_url()).content.decode()
    for bad in ["Mars/Olympus", "../../etc/passwd", "x" * 100]:
        client.cookies["tz"] = bad
        assert "15 Jan 2031 12:00 UTC</time>" in client.get(winter_cup.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_pages_that_run_scripts_load_the_zone_script(client: Client, alice: Any, winter_cup: Any) -> None:
    assert '<script src="/static/js/zone.js" defer></script>' in client.get(
        winter_cup.get_absolute_url()).content.decode()
    client.force_login(alice)
    assert '<script src="/static/js/zone.js" defer></script>' in client.get("/").content.decode()


# --- compiling the catalogs (make run, make test) -------------------------------


TINY_PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Lobby"
msgstr "Spielsaal"
"""


def test_make_run_and_make_test_compile_the_catalogs(tmp_path: Any) -> None:
    import gettext

    from tests.helpers import load_dev

    po = tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text(TINY_PO, encoding="utf-8")
    assert load_dev().compile_catalogs(tmp_path)
    with open(po.with_suffix(".mo"), "rb") as compiled:
        assert gettext.GNUTranslations(compiled).gettext("Lobby") == "Spielsaal"


def test_compiling_without_catalogs_does_nothing(tmp_path: Any) -> None:
    from tests.helpers import load_dev

    assert load_dev().compile_catalogs(tmp_path)
    assert list(tmp_path.iterdir()) == []

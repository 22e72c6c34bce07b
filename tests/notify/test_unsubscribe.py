"""Every e-mail's unsubscribe link works without signing in, through a signed
token of its own salt; a changed token is refused with a clear message."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import signing
from django.test import Client

from notify import mail
from notify.models import Kind, channels_of
from preferences.languages import save_language
from tests.notify.mails import choose

pytestmark = [pytest.mark.django_db]


def path(user: Any, kind: str) -> str:
    return f"/notifications/unsubscribe/{mail.unsubscribe_token(user.pk, kind)}/"


def test_the_link_asks_first_then_unsubscribes_signed_out(alice: Any) -> None:
    choose(alice, "turn", email=True, push=False)
    page = Client().get(path(alice, "turn"))
    assert page.status_code == 200
    assert "Stop sending alice@example.org e-mail for “Your turn in a correspondence game”?" in page.content.decode()
    assert channels_of(alice.pk, "turn")["email"]  # a GET (a mail scanner's) changes nothing
    done = Client(enforce_csrf_checks=True).post(path(alice, "turn"))
    assert done.status_code == 200
    assert "Done: alice@example.org gets no more e-mail" in done.content.decode()
    assert channels_of(alice.pk, "turn") == {"site": True, "email": False, "push": False}  # the others kept


def test_unsubscribing_from_one_kind_keeps_the_others(alice: Any) -> None:
    choose(alice, "turn", email=True)
    choose(alice, "clock", email=True)
    Client().post(path(alice, "turn"))
    assert (channels_of(alice.pk, "turn")["email"], channels_of(alice.pk, "clock")["email"]) == (False, True)


def test_the_all_link_stops_every_e_mail(alice: Any) -> None:
    for kind in Kind.values:
        choose(alice, kind, email=True)
    Client().post(path(alice, mail.ALL_KINDS))
    assert not any(channels_of(alice.pk, kind)["email"] for kind in Kind.values)


@pytest.mark.parametrize("change", [
    lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),  # the signature changed
    lambda token: token[: len(token) // 2],  # cut short
    lambda token: signing.dumps({"u": 1, "k": "turn"}),  # signed, but with the default salt: not ours
])
def test_a_changed_token_is_refused_with_a_clear_message(alice: Any, change: Any) -> None:
    choose(alice, "turn", email=True)
    token = change(mail.unsubscribe_token(alice.pk, "turn"))
    response = Client().post(f"/notifications/unsubscribe/{token}/")
    assert response.status_code == 400
    assert "This unsubscribe link is not valid: it was changed or cut short." in response.content.decode()
    assert channels_of(alice.pk, "turn")["email"]


def test_a_token_for_another_player_unsubscribes_only_them(alice: Any, bob: Any) -> None:
    choose(alice, "turn", email=True)
    choose(bob, "turn", email=True)
    Client().post(path(bob, "turn"))
    assert (channels_of(alice.pk, "turn")["email"], channels_of(bob.pk, "turn")["email"]) == (True, False)


@pytest.mark.parametrize("browser", ["en", "de", ""])
def test_the_page_speaks_the_recipients_saved_language_whatever_the_browser(browser: str, alice: Any) -> None:
    """The token says who reads it (issue 35, 14): a mail program's browser, or
    a signed-out visitor, has no say over the recipient's own choice."""
    save_language(alice, "ru")
    choose(alice, "turn", email=True)
    response = Client().get(path(alice, "turn"), HTTP_ACCEPT_LANGUAGE=browser)
    asked = response.content.decode()
    assert '<html lang="ru">' in asked and response["Content-Language"] == "ru"
    assert "Больше не присылать на alice@example.org письма «Ваш ход в партии по переписке»?" in asked
    done = Client().post(path(alice, mail.ALL_KINDS), HTTP_ACCEPT_LANGUAGE=browser).content.decode()
    assert "Готово: на alice@example.org больше не будут приходить письма" in done and "Done:" not in done


def test_without_a_saved_language_the_page_follows_the_browser(alice: Any) -> None:
    page = Client().get(path(alice, "turn"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="de">' in page and "Stop sending" not in page

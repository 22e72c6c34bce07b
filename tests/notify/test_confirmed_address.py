"""No notification mail goes to an address its owner has not confirmed
(issue 35, 14): anyone can type anyone's address, so the digest, the clock
warnings and the notice mails wait for allauth's confirmation link to be
followed. Players still sign in and play at once ("optional" verification);
the account page says the address is unconfirmed and sends the link again.
Through real SMTP (the tests' sink), in the four languages."""

from __future__ import annotations

import queue
import re
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from games import reminders
from notify import mail
from notify.models import Kind, Notification
from preferences.languages import save_language
from tests.helpers import client_for
from tests.notify.mails import choose, confirm_address, correspondence

pytestmark = [pytest.mark.django_db]

CHALLENGE = {"challenger": "bob", "time_control": "5+3", "title": "Ace in the Hole", "players": 2, "rated": True}
# allauth's own subject for its confirmation mail, from the catalogs it ships.
CONFIRM_SUBJECT = {"en": "Please Confirm Your Email Address", "de": "Bitte bestätige deine E-Mail-Adresse",
                   "es": "Por favor, confirme su dirección de correo electrónico",
                   "ru": "Пожалуйста, подтвердите Ваш адрес электронной почты"}
# Ours, on the account page.
UNCONFIRMED = {"en": "No e-mail goes to alice@example.org until you confirm that it is yours",
               "de": "An alice@example.org geht keine E-Mail, bis du bestätigst, dass die Adresse dir gehört",
               "es": "No enviamos ningún correo a alice@example.org hasta que confirmes que es tuya",
               "ru": "На alice@example.org не придёт ни одного письма, пока вы не подтвердите, что это ваш адрес"}
SEND_AGAIN = {"en": "Send the confirmation e-mail again", "de": "Bestätigungs-E-Mail erneut senden",
              "es": "Volver a enviar el correo de confirmación", "ru": "Отправить письмо с подтверждением ещё раз"}


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    """allauth counts confirmation mails per address in the cache."""
    cache.clear()
    yield
    cache.clear()


def everything_due(alice: Any, bob: Any) -> None:
    """A digest and a clock warning due for alice, who chose both and challenges by e-mail."""
    for kind in (Kind.TURN, Kind.CLOCK, Kind.CHALLENGE):
        choose(alice, kind, email=True, confirmed=False)
    correspondence(alice, bob, turn_started=timezone.now() - timedelta(days=2, hours=20))  # 4 hours left


def send_everything() -> int:
    """Every notification mail that can go: the digest, the warning, a challenge's."""
    return (reminders.send_turn_digests(timezone.now()) + reminders.send_clock_warnings(timezone.now())
            + mail.send_notice(get_user_model().objects.get(username="alice").pk, Kind.CHALLENGE, CHALLENGE, "/lobby/"))


def received(sink: Any) -> list[EmailMessage]:
    messages = []
    while True:
        try:
            messages.append(sink.messages.get(timeout=1))
        except queue.Empty:
            return messages


def confirmation_link(message: EmailMessage) -> str:
    found = re.search(r"http://testserver(/accounts/confirm-email/[^/\s]+/)", message.get_body(("plain",)).get_content())
    assert found, message.get_body(("plain",)).get_content()
    return found[1]


def test_an_unconfirmed_address_gets_no_notification_mail_until_confirmed(
        alice: Any, bob: Any, mail_sink: Any, settings: Any) -> None:
    settings.TURN_DIGEST_HOUR = 0
    everything_due(alice, bob)
    send_everything()
    assert received(mail_sink) == []
    # The site's own channels are not held back: the bell still warns.
    assert Notification.objects.filter(user=alice, kind=Kind.CLOCK).count() == 1
    confirm_address(alice)
    Notification.objects.all().delete()
    reminders.send_turn_digests(timezone.now() + timedelta(days=1))  # the next day's digest
    mail.send_notice(alice.pk, Kind.CHALLENGE, CHALLENGE, "/lobby/")
    assert sorted(str(m["Subject"]) for m in received(mail_sink)) == ["A challenge", "It's your turn in 1 game"]


def test_an_address_confirmed_then_changed_is_unconfirmed_again(alice: Any, bob: Any, mail_sink: Any,
                                                                 settings: Any) -> None:
    settings.TURN_DIGEST_HOUR = 0
    everything_due(alice, bob)
    confirm_address(alice)
    alice.email = "someone-else@example.org"  # e.g. typed in the admin: only the confirmed one counts
    alice.save(update_fields=["email"])
    send_everything()
    assert received(mail_sink) == []


@pytest.mark.parametrize("language", ["en", "de", "es", "ru"])
def test_a_new_player_plays_at_once_and_gets_mail_once_the_link_is_followed(
        language: str, bob: Any, mail_sink: Any, settings: Any) -> None:
    settings.TURN_DIGEST_HOUR = 0
    visitor = Client(HTTP_ACCEPT_LANGUAGE=language)
    signed_up = visitor.post("/accounts/signup/", {"username": "dora", "email": "dora@example.org",
                                                   "password1": "pawns-and-cards-7"})
    assert signed_up.status_code == 302 and visitor.session.get("_auth_user_id")  # signed in: "optional"
    [confirmation] = received(mail_sink)
    assert str(confirmation["Subject"]).endswith(CONFIRM_SUBJECT[language])
    assert confirmation["To"] == "dora@example.org"
    dora = get_user_model().objects.get(username="dora")
    choose(dora, Kind.TURN, email=True, confirmed=False)
    correspondence(dora, bob)
    assert reminders.send_turn_digests(timezone.now()) == 0 and received(mail_sink) == []
    link = confirmation_link(confirmation)
    asked = visitor.get(link)
    assert asked.status_code == 200 and "dora@example.org" in asked.content.decode()
    assert visitor.post(link).status_code == 302
    assert EmailAddress.objects.get(user=dora).verified
    assert reminders.send_turn_digests(timezone.now() + timedelta(days=1)) == 1
    assert [m["To"] for m in received(mail_sink)] == ["dora@example.org"]


@pytest.mark.parametrize("language", ["en", "de", "es", "ru"])
def test_the_account_page_says_the_address_is_unconfirmed_and_sends_the_link_again(
        language: str, alice: Any, mail_sink: Any) -> None:
    """alice signed up before addresses were confirmed (no allauth record at all): as any unconfirmed one."""
    save_language(alice, language)
    choose(alice, Kind.TURN, email=True, confirmed=False)
    client = client_for(alice)
    page = client.get("/account/preferences/").content.decode()
    assert UNCONFIRMED[language] in page and SEND_AGAIN[language] in page
    form = re.search(r'<form method="post" action="/accounts/email/"[^>]*>(.*?)</form>', page, re.S)
    assert form and 'name="action_send"' in form[1] and 'value="alice@example.org"' in form[1]
    client.post("/accounts/email/", {"email": "alice@example.org", "action_send": ""})
    [confirmation] = received(mail_sink)
    assert str(confirmation["Subject"]).endswith(CONFIRM_SUBJECT[language])
    client.post(confirmation_link(confirmation))
    page = client.get("/account/preferences/").content.decode()
    assert UNCONFIRMED[language] not in page and SEND_AGAIN[language] not in page


def test_a_player_without_an_address_is_told_where_to_add_one(alice: Any) -> None:
    alice.email = ""
    alice.save(update_fields=["email"])
    page = client_for(alice).get("/account/preferences/").content.decode()
    assert "You have no e-mail address: add one to be told by e-mail." in page
    assert 'href="/accounts/email/"' in page

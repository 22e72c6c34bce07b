"""allauth's own pages and e-mails speak the visitor's language through the
catalogs allauth ships (de, es, ru); the site's overrides only wrap them."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db

# allauth's wording in each language ("Forgot your password?", "Password Reset Email").
FORGOT = {"de": "Passwort vergessen?", "es": "¿Ha olvidado su contraseña?", "ru": "Забыли свой пароль?"}
RESET_SUBJECT = {"de": "E-Mail zum Zurücksetzen des Passworts", "ru": "Письмо для сброса пароля"}


@pytest.mark.parametrize("language", ["de", "es", "ru"])
def test_a_visitor_gets_the_sign_in_page_in_their_browsers_language(client: Client, language: str) -> None:
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}">' in page
    assert FORGOT[language] in page
    assert "Forgot your password?" not in page


def test_the_sign_in_page_stays_english_for_an_english_browser(client: Client) -> None:
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Forgot your password?" in page


@pytest.mark.parametrize("language", ["de", "ru"])
def test_the_password_reset_email_is_written_in_the_askers_language(client: Client, alice: Any,
                                                                    language: str) -> None:
    client.post("/accounts/password/reset/", {"email": "alice@example.org"}, HTTP_ACCEPT_LANGUAGE=language)
    assert len(mail.outbox) == 1
    assert RESET_SUBJECT[language] in mail.outbox[0].subject
    assert "You're receiving this email" not in str(mail.outbox[0].body)

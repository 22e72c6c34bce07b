"""Per-kind channel choices on the account page (/account/preferences/, the
notify_preferences tag; saved by /notifications/preferences/): what e-mail
means per kind is said plainly, and turning the site channel off stops the
bell and the page for that kind."""

from __future__ import annotations

from typing import Any

import pytest

from notify import notices
from notify.forms import field_name
from notify.models import DEFAULTS, Channel, Kind, Notification, channels_of
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def defaults_but(**changes: bool) -> dict[str, str]:
    """The form's POST data: every default box, with ``changes`` (``turn__site=False``)."""
    data = {}
    for kind in Kind.values:
        for channel in Channel.values:
            name = field_name(kind, channel)
            if changes.get(name.replace("-", "_"), DEFAULTS[kind][channel]):
                data[name] = "on"
    return data


def test_the_account_page_shows_every_kind_and_channel_and_what_e_mail_means(alice: Any) -> None:
    page = client_for(alice).get("/account/preferences/").content.decode()
    assert page.count('type="checkbox"') == len(Kind.values) * len(Channel.values)
    assert 'name="turn__site" id="id_turn__site" checked' in page
    assert 'name="turn__email" id="id_turn__email">' in page  # e-mail is opt-in
    assert "By e-mail: one daily digest of the correspondence games where it is your move." in page
    assert "By e-mail: a warning 24 hours and 1 hour before your correspondence clock runs out." in page
    assert 'action="/notifications/preferences/"' in page


def test_saving_stores_each_kind_s_channels(alice: Any) -> None:
    response = client_for(alice).post("/notifications/preferences/", defaults_but(turn__email=True,
                                                                                    challenge__push=False))
    assert response.status_code == 302 and response["Location"] == "/account/preferences/#notifications"
    assert channels_of(alice.pk, Kind.TURN) == {"site": True, "email": True, "push": True}
    assert channels_of(alice.pk, Kind.CHALLENGE) == {"site": True, "email": False, "push": False}
    page = client_for(alice).get("/account/preferences/").content.decode()
    assert 'name="turn__email" id="id_turn__email" checked' in page


def test_the_site_channel_off_keeps_that_kind_out_of_the_bell_and_the_page(alice: Any) -> None:
    notices.send(alice.pk, Kind.FOLLOWER, "user:1", {"username": "bob"})
    notices.send(alice.pk, Kind.TURN, "game:1", {"opponents": ["bob"], "title": "Ace in the Hole"})
    client_for(alice).post("/notifications/preferences/", defaults_but(follower__site=False))
    assert list(Notification.objects.filter(user=alice).values_list("kind", flat=True)) == ["turn"]
    notice = notices.send(alice.pk, Kind.FOLLOWER, "user:2", {"username": "carol"})
    assert notice.notification_id is None and notice.channels["site"] is False
    page = client_for(alice).get("/notifications/").content.decode()
    assert "follows you" not in page
    assert notices.unread_count(alice.pk) == 1


def test_only_a_signed_in_post_saves(client: Any, alice: Any) -> None:
    assert client.post("/notifications/preferences/", {})["Location"].startswith("/accounts/login/")
    assert client_for(alice).get("/notifications/preferences/").status_code == 405

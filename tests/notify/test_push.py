"""Web push from the server's side: subscriptions (validated, at most 5 a
player), and pushes sent, encrypted and signed, to the tests' own push service
on 127.0.0.1 (tests/notify/receiver.py), which decrypts them as a browser would."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from py_vapid import Vapid

from notify import push
from notify.models import PushSubscription
from preferences.languages import save_language
from tests.helpers import client_for
from tests.notify.receiver import Receiver, unb64url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("push_settings")]


def subscribe(client: Client, subscription: dict[str, Any]) -> Any:
    return client.post("/notifications/push/subscribe/", json.dumps(subscription), content_type="application/json")


def turn(user_id: int) -> int:
    return push.push_to(user_id, "turn", "game:7", {"game": 7, "title": "Ace in the Hole", "players": 2, "opponents": ["bob"]}, "/games/7/")


def test_a_push_reaches_the_browser_encrypted_signed_and_worded(alice: Any, receiver: Receiver) -> None:
    assert subscribe(client_for(alice), receiver.subscription("alice")).status_code == 201
    assert turn(alice.pk) == 1
    sent = receiver.take()
    assert sent.path == "/push/alice"
    assert receiver.payload(sent) == {"title": "Your turn", "body": "It is your move against bob (Ace in the Hole).",
                                      "url": "https://aceweb.example/games/7/", "tag": "turn:game:7"}
    # VAPID (RFC 8292): signed by our key, for the push service's origin.
    scheme, _, fields = sent.headers["authorization"].partition(" ")
    vapid = dict(field.strip().split("=", 1) for field in fields.split(","))
    token, key = vapid["t"], vapid["k"]
    assert scheme == "vapid"
    assert key == push.settings.WEBPUSH_VAPID_PUBLIC_KEY
    claims = json.loads(unb64url(token.split(".")[1]))
    assert (claims["aud"], claims["sub"]) == (receiver.base, "mailto:push-tests@example.org")
    assert int(sent.headers["ttl"]) == 86_400


def test_the_push_speaks_the_players_language(alice: Any, receiver: Receiver) -> None:
    save_language(alice, "de")
    subscribe(client_for(alice), receiver.subscription("alice"))
    turn(alice.pk)
    assert receiver.payload(receiver.take())["title"] == "Du bist am Zug"


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_calls_gone_is_removed(alice: Any, receiver: Receiver, status: int) -> None:
    client = client_for(alice)
    subscribe(client, receiver.subscription("gone"))
    subscribe(client, receiver.subscription("here"))
    receiver.answers["/push/gone"] = status
    assert turn(alice.pk) == 1
    assert {receiver.take().path, receiver.take().path} == {"/push/gone", "/push/here"}
    assert [s.endpoint for s in PushSubscription.objects.filter(user=alice)] == [f"{receiver.base}/push/here"]


def test_a_failing_push_service_keeps_the_subscription(alice: Any, receiver: Receiver) -> None:
    subscribe(client_for(alice), receiver.subscription("busy"))
    receiver.answers["/push/busy"] = 503
    assert turn(alice.pk) == 0
    receiver.take()
    assert PushSubscription.objects.filter(user=alice).count() == 1


def test_an_unreachable_push_service_is_given_up_on_without_an_error(alice: Any, receiver: Receiver) -> None:
    subscribe(client_for(alice), receiver.subscription("x"))
    receiver.server.server_close()  # nothing listens any more: connection refused
    assert turn(alice.pk) == 0
    assert PushSubscription.objects.filter(user=alice).count() == 1


def test_a_push_service_redirecting_elsewhere_is_not_followed(alice: Any, receiver: Receiver) -> None:
    subscribe(client_for(alice), receiver.subscription("moved"))
    receiver.redirects["/push/moved"] = f"{receiver.base}/push/inside"
    assert turn(alice.pk) == 0
    assert receiver.take().path == "/push/moved"
    assert receiver.pushes.empty()  # never posted to where it pointed
    assert PushSubscription.objects.filter(user=alice).count() == 1


def test_the_sixth_subscription_replaces_the_oldest(alice: Any, bob: Any, receiver: Receiver) -> None:
    client = client_for(alice)
    subscribe(client_for(bob), receiver.subscription("bob"))
    for number in range(6):
        assert subscribe(client, receiver.subscription(f"alice-{number}")).status_code == 201
    kept = PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True)
    assert sorted(kept) == [f"{receiver.base}/push/alice-{n}" for n in range(1, 6)]
    assert PushSubscription.objects.filter(user=bob).count() == 1  # another player's are not counted


def test_subscribing_the_same_browser_again_does_not_count_twice(alice: Any, bob: Any, receiver: Receiver) -> None:
    subscribe(client_for(alice), receiver.subscription("shared"))
    subscribe(client_for(alice), receiver.subscription("shared"))
    assert PushSubscription.objects.filter(user=alice).count() == 1
    subscribe(client_for(bob), receiver.subscription("shared"))  # bob signs in on alice's browser
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_plain_http_endpoint_on_an_unlisted_host_is_refused(alice: Any, receiver: Receiver, settings: Any) -> None:
    response = subscribe(client_for(alice), {**receiver.subscription("x"), "endpoint": "http://push.example.org/x"})
    assert response.status_code == 400
    assert response.json() == {
        "error": "A push endpoint must be a public https:// address; http://push.example.org/x is not."}
    settings.WEBPUSH_HTTP_HOSTS = []  # the receiver's own host too, once not listed
    assert subscribe(client_for(alice), receiver.subscription("x")).status_code == 400
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("endpoint", [
    "https://127.0.0.1:9000/x", "https://10.1.2.3/x", "https://[::1]/x", "https://localhost/x",
    "https://169.254.169.254/latest", "ftp://push.example.org/x", "https:///x", "https://[::1/x"])
def test_an_endpoint_inside_the_servers_network_is_refused(
        alice: Any, receiver: Receiver, settings: Any, endpoint: str) -> None:
    settings.WEBPUSH_HTTP_HOSTS = []
    response = subscribe(client_for(alice), {**receiver.subscription("x"), "endpoint": endpoint})
    assert response.status_code == 400
    assert "must be a public https:// address" in response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_an_endpoint_too_long_to_store_is_refused(alice: Any, receiver: Receiver) -> None:
    endpoint = "https://push.example.org/" + "x" * 500
    response = subscribe(client_for(alice), {**receiver.subscription("x"), "endpoint": endpoint})
    assert (response.status_code, response.json()) == (400, {"error": "The push endpoint is too long."})


def test_a_public_https_endpoint_is_taken(alice: Any, receiver: Receiver) -> None:
    endpoint = "https://fcm.googleapis.com/fcm/send/abc:def"
    assert subscribe(client_for(alice), {**receiver.subscription("x"), "endpoint": endpoint}).status_code == 201
    assert PushSubscription.objects.get().endpoint == endpoint


@pytest.mark.parametrize("change", [{"p256dh": "c2hvcnQ"}, {"auth": "not base64!"}, {"auth": ""}])
def test_a_subscription_with_bad_keys_is_refused(alice: Any, receiver: Receiver, change: dict[str, str]) -> None:
    subscription = receiver.subscription("x")
    subscription["keys"] = {**subscription["keys"], **change}
    response = subscribe(client_for(alice), subscription)
    assert response.status_code == 400
    assert "key is not valid" in response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_subscribing_needs_a_signed_in_player_and_the_csrf_token(alice: Any, receiver: Receiver) -> None:
    assert subscribe(Client(), receiver.subscription("x")).status_code == 403
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(alice)
    assert subscribe(guarded, receiver.subscription("x")).status_code == 403
    assert not PushSubscription.objects.exists()


def test_a_body_that_is_not_json_is_refused_clearly(alice: Any) -> None:
    response = client_for(alice).post("/notifications/push/subscribe/", "endpoint=x", content_type="application/json")
    assert (response.status_code, response.json()) == (400, {"error": "The request is not JSON."})


def test_unsubscribing_forgets_only_ones_own_browser(alice: Any, bob: Any, receiver: Receiver) -> None:
    subscribe(client_for(alice), receiver.subscription("alice"))
    endpoint = receiver.subscription("alice")["endpoint"]
    body = json.dumps({"endpoint": endpoint})
    assert client_for(bob).post("/notifications/push/unsubscribe/", body, content_type="application/json").json() == {
        "unsubscribed": False}
    assert client_for(alice).post("/notifications/push/unsubscribe/", body, content_type="application/json").json() == {
        "unsubscribed": True}
    assert not PushSubscription.objects.exists()


def test_without_keys_push_is_off_and_says_so(alice: Any, receiver: Receiver, settings: Any) -> None:
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    response = subscribe(client_for(alice), receiver.subscription("x"))
    assert (response.status_code, response.json()["error"]) == (
        503, "Browser notifications are not set up on this site.")
    assert "Browser notifications are not set up on this site." in client_for(alice).get(
        "/account/preferences/").content.decode()


def test_the_account_page_offers_browser_notifications_with_the_public_key(alice: Any) -> None:
    page = client_for(alice).get("/account/preferences/").content.decode()
    assert "Turn on browser notifications" in page
    assert f'data-push-key="{push.settings.WEBPUSH_VAPID_PUBLIC_KEY}"' in page


def test_the_service_worker_is_served_at_the_root_as_javascript() -> None:
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "showNotification" in response.content.decode()


def test_vapid_keys_makes_a_pair_that_signs(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("vapid_keys")
    keys = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    signer = Vapid.from_string(keys["WEBPUSH_VAPID_PRIVATE_KEY"])
    headers = signer.sign({"sub": "mailto:a@example.org", "aud": "https://push.example.org"})
    assert headers["Authorization"].endswith("k=" + keys["WEBPUSH_VAPID_PUBLIC_KEY"])


def test_vapid_keys_dev_writes_a_pair_once_for_make_run(settings: Any, tmp_path: Any) -> None:
    settings.VAPID_DEV_FILE = tmp_path / "keys"
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    call_command("vapid_keys", "--dev")
    written = settings.VAPID_DEV_FILE.read_text()
    assert written.startswith("WEBPUSH_VAPID_PUBLIC_KEY=B")  # the uncompressed point's 0x04 in base64url
    from aceweb.settings import vapid_dev_keys

    assert set(vapid_dev_keys(settings.VAPID_DEV_FILE)) == {"WEBPUSH_VAPID_PUBLIC_KEY", "WEBPUSH_VAPID_PRIVATE_KEY"}

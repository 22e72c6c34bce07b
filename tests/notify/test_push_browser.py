"""In Chromium: a player turns on browser notifications on the account page,
and a push for them reaches the page's real service worker (/sw.js), which
shows it.

Chromium's real ``pushManager.subscribe`` asks Google's push service for an
endpoint, which cannot be reached from here. So an init script stubs
``PushManager.prototype.subscribe`` (and ``getSubscription``) to return the
test's own subscription: the endpoint of the tests' push receiver on
127.0.0.1 and the keys the test holds. Everything else is real: the page's
control, the CSRF-protected subscribe request, notify.notices.send, the Celery
worker, pywebpush's encryption and VAPID signature, the receiver's decryption;
then the test hands the decrypted payload to the page's service worker through
the DevTools protocol (``ServiceWorker.deliverPushMessage``), as the browser
would on receiving it, and reads ``registration.getNotifications()``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from notify import notices
from notify.models import PushSubscription
from tests.games.conftest import session_cookie
from tests.helpers import ARTIFACTS
from tests.notify.conftest import pushing_worker
from tests.notify.receiver import Receiver, unb64url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("push_settings")]

STUB = """
(() => {
  const subscription = %s;
  // The browser keeps its subscription across pages: here in localStorage.
  const made = () => ({
    endpoint: subscription.endpoint, expirationTime: null, options: {userVisibleOnly: true},
    toJSON: () => subscription, getKey: () => null,
    unsubscribe: async () => { localStorage.removeItem("subscribed"); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    window.pushOptions = {userVisibleOnly: options.userVisibleOnly,
                          key: Array.from(new Uint8Array(options.applicationServerKey))};
    localStorage.setItem("subscribed", "1");
    return made();
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem("subscribed") ? made() : null;
  };
})();
"""

NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map((n) => ({title: n.title, body: n.body, tag: n.tag,
                                                               url: n.data && n.data.url}));
}"""


@pytest.fixture
def cookie(alice: Any) -> str:
    return session_cookie(alice)


@pytest.fixture
def site(push_environment: dict[str, str], daphne_server: str, tmp_path: Path) -> Iterator[str]:
    """daphne and a worker, both with the push keys (push_environment comes
    first), the worker linking to daphne's pages."""
    with pushing_worker(tmp_path / "worker.log", **push_environment, SITE_URL=daphne_server):
        yield daphne_server


def worker_registration(page: Page, cdp: Any) -> str:
    """The id of the page's service worker registration, as DevTools knows it."""
    found: list[str] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: found.extend(r["registrationId"] for r in event["registrations"] if not r["isDeleted"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 30
    while not found and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert found, "DevTools reported no service worker registration"
    return found[-1]


def shown_once(page: Page, count: int) -> list[dict[str, Any]]:
    """The worker's notifications once there are ``count`` (bounded wait)."""
    shown: list[dict[str, Any]] = []
    deadline = time.monotonic() + 30
    while len(shown) < count and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        shown = page.evaluate(NOTIFICATIONS)
    return shown


def test_a_subscribed_browser_shows_the_push_for_its_player(
        alice: Any, cookie: str, receiver: Receiver, site: str, chromium_browser: Browser,
        orm: Callable[..., Any]) -> None:
    context = chromium_browser.new_context()
    context.grant_permissions(["notifications"], origin=site)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": site}])
    context.add_init_script(STUB % json.dumps(receiver.subscription("chromium")))
    page = context.new_page()
    page.goto(f"{site}/account/preferences/")
    page.get_by_role("button", name="Turn on browser notifications").click()
    expect(page.locator("[data-push-status]")).to_have_text("Browser notifications are on.")
    expect(page.get_by_role("button", name="Turn off browser notifications")).to_be_visible()
    expect(page.get_by_role("button", name="Turn on browser notifications")).to_be_hidden()
    options = page.evaluate("window.pushOptions")
    assert options["userVisibleOnly"] is True
    assert bytes(options["key"]) == unb64url(settings.WEBPUSH_VAPID_PUBLIC_KEY)
    assert orm(lambda: list(PushSubscription.objects.values_list("user__username", "endpoint"))) == [
        ("alice", f"{receiver.base}/push/chromium")]

    orm(notices.send, alice.pk, "turn", "game:7", {"game": 7, "title": "Ace in the Hole", "players": 2, "opponents": ["bob"]}, "/games/7/")
    data = receiver.decrypt(receiver.take(timeout=90)).decode()
    cdp = context.new_cdp_session(page)
    registration = worker_registration(page, cdp)
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": site, "registrationId": registration, "data": data})
    assert shown_once(page, 1) == [{"title": "Your turn", "body": "It is your move against bob (Ace in the Hole).",
                                    "tag": "turn:game:7", "url": f"{site}/games/7/"}]
    # A push naming another site's page gets this site's home instead: the worker opens only our pages.
    foreign = json.dumps({"title": "t", "body": "b", "url": "https://elsewhere.example/x", "tag": "other"})
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": site, "registrationId": registration, "data": foreign})
    urls = {shown["tag"]: shown["url"] for shown in shown_once(page, 2)}
    assert urls == {"turn:game:7": f"{site}/games/7/", "other": f"{site}/"}
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "push-preferences.png"), full_page=True)

    # The push service called it gone (410: removed); the next visit hands it over again.
    orm(lambda: PushSubscription.objects.all().delete())
    page.reload()
    expect(page.get_by_role("button", name="Turn off browser notifications")).to_be_visible()
    deadline = time.monotonic() + 30
    while not orm(lambda: PushSubscription.objects.exists()) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert orm(lambda: PushSubscription.objects.count()) == 1

    page.get_by_role("button", name="Turn off browser notifications").click()
    expect(page.locator("[data-push-status]")).to_have_text("Browser notifications are off.")
    expect(page.get_by_role("button", name="Turn off browser notifications")).to_be_hidden()
    assert orm(lambda: PushSubscription.objects.count()) == 0
    context.close()

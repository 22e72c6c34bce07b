// "Turn on browser notifications" on the account page: registers the service
// worker (/sw.js), subscribes this browser with the site's VAPID public key and
// hands the subscription to the server (notify/views.py); "Turn off" undoes both.
(function () {
  "use strict";

  const box = document.querySelector("[data-push]");
  if (!box) return;
  const on = box.querySelector("[data-push-on]");
  const off = box.querySelector("[data-push-off]");
  const status = box.querySelector("[data-push-status]");
  const token = box.querySelector("[name=csrfmiddlewaretoken]").value;

  function say(text) {
    status.textContent = text;
  }

  function showSubscribed(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
  }

  function keyBytes(base64url) {
    // The VAPID public key as the Push API wants it: the raw P-256 point.
    const base64 = (base64url + "=".repeat((4 - base64url.length % 4) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-CSRFToken": token},
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error || response.statusText);
    return answer;
  }

  async function registration() {
    await navigator.serviceWorker.register("/sw.js", {scope: "/"});
    return navigator.serviceWorker.ready;
  }

  async function turnOn() {
    on.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say(gettext("This browser is not allowed to show notifications: allow them in its site settings."));
        return;
      }
      const worker = await registration();
      const subscription = await worker.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.pushKey),
      });
      await post(box.dataset.pushSubscribe, subscription.toJSON());
      showSubscribed(true);
      say(gettext("Browser notifications are on."));
    } catch (error) {
      say(interpolate(gettext("Browser notifications could not be turned on: %s"), [error.message]));
    } finally {
      on.disabled = false;
    }
  }

  async function turnOff() {
    off.disabled = true;
    try {
      const worker = await registration();
      const subscription = await worker.pushManager.getSubscription();
      if (subscription) {
        await post(box.dataset.pushUnsubscribe, {endpoint: subscription.endpoint});
        await subscription.unsubscribe();
      }
      showSubscribed(false);
      say(gettext("Browser notifications are off."));
    } catch (error) {
      say(interpolate(gettext("Browser notifications could not be turned off: %s"), [error.message]));
    } finally {
      off.disabled = false;
    }
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    on.hidden = true;
    say(gettext("This browser cannot show notifications from a site."));
    return;
  }
  on.addEventListener("click", turnOn);
  off.addEventListener("click", turnOff);
  navigator.serviceWorker.getRegistration("/")
    .then((worker) => worker ? worker.pushManager.getSubscription() : null)
    .then((subscription) => {
      const subscribed = Boolean(subscription) && Notification.permission === "granted";
      showSubscribed(subscribed);
      // Hand it over again: the server drops a subscription its push service
      // called gone, and this browser may since have a new one.
      if (subscribed) post(box.dataset.pushSubscribe, subscription.toJSON()).catch(() => {});
    })
    .catch(() => showSubscribed(false));
})();

// aceweb's service worker (served at /sw.js, scope: the whole site): shows the
// web push notifications the server sends (notify/push.py) and opens their page
// when clicked. A push carries only {title, body, url, tag}: never a card.
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function sameSite(url) {
  // Only ever open a page of this site, whatever a push says.
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {body: event.data ? event.data.text() : ""};
  }
  const options = {
    body: data.body || "",
    tag: data.tag || undefined,   // a newer push about the same thing replaces the older
    renotify: Boolean(data.tag),
    icon: "/static/favicon.svg",
    data: {url: sameSite(data.url)},
  };
  event.waitUntil(self.registration.showNotification(data.title || "aceweb", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({type: "window", includeUncontrolled: true});
    const open = windows.find((client) => client.url === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});

// The viewer's time zone, for the times the server writes (tournament starts):
// a `tz` cookie with the browser's IANA zone, which preferences.middleware
// activates. Set only when missing or changed; the first page a browser sees
// is still in UTC, and says so.
(function () {
  "use strict";
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return;
  }
  if (!zone) return;
  const current = document.cookie.split("; ").find((part) => part.startsWith("tz="));
  if (current && decodeURIComponent(current.slice(3)) === zone) return;
  document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; SameSite=Lax";
})();

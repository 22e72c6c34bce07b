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
  // IANA names (Europe/Berlin, Etc/GMT+5) are safe in a cookie as they are, and the
  // server reads the value unescaped: anything else is left out.
  if (!/^[A-Za-z0-9_+\/-]{1,64}$/.test(zone)) return;
  if (document.cookie.split("; ").includes("tz=" + zone)) return;
  document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
})();

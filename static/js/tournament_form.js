// The organizer's tournament form: times in the browser's own zone, and only
// the settings of the chosen format. Without this script the form still works:
// every setting is shown (the server ignores those of other formats) and times are UTC.
(function () {
  "use strict";

  const form = document.getElementById("tournament-form");
  if (!form) return;

  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone && zone !== form.dataset.zone) {
    const url = new URL(location.href);
    const asked = url.searchParams.get("tz") === zone;  // asked already: the server does not know it
    if (!asked && !form.querySelector(".errorlist")) {  // the times shown were written in another zone: ask for them in this one
      url.searchParams.set("tz", zone);
      location.replace(url);
      return;
    }
  }
  if (zone) {
    form.elements.time_zone.value = zone;
    form.querySelectorAll("[data-zone-label]").forEach((label) => { label.textContent = zone; });
  }

  const format = form.elements.format;
  function showFormat() {
    form.querySelectorAll("[data-formats]").forEach((field) => {
      const used = field.dataset.formats.split(" ").includes(format.value);
      field.hidden = !used;
      field.querySelectorAll("input, select, textarea").forEach((input) => { input.disabled = !used; });
    });
  }
  format.addEventListener("change", showFormat);
  showFormat();
})();

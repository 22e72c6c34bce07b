// The moderator's act form (admin): only the fields the chosen kind of act uses
// (moderation/admin_links.py KIND_FIELDS, on the kind's select). Without this
// script every field shows, and the server ignores those the kind does not use.
(function () {
  "use strict";

  function fieldName(row) {
    const found = Array.from(row.classList).find((name) => name.startsWith("field-"));
    return found ? found.slice("field-".length) : null;
  }

  function start() {
    const kind = document.querySelector("select[data-kind-fields]");
    if (!kind) return;
    const fields = JSON.parse(kind.dataset.kindFields);
    const always = JSON.parse(kind.dataset.alwaysShown);

    function showKind() {
      const used = fields[kind.value];  // undefined: no kind chosen, or one the map does not name: all
      kind.form.querySelectorAll(".form-row").forEach((row) => {
        const name = fieldName(row);
        if (!name) return;
        const shown = used === undefined || always.includes(name) || used.includes(name);
        row.style.display = shown ? "" : "none";
      });
    }
    kind.addEventListener("change", showKind);
    showKind();
  }

  // The admin puts a form's scripts in the page's head, before the form.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

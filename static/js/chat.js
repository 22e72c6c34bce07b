// Chat boxes (issue 25). A page's own socket carries them: its script calls
// AcewebChat.attach(send) with a function that sends a frame, and hands every
// "chatLine" and "chatRefused" message to AcewebChat.receive. A box is
// templates/chat/_box.html; a page with two rooms (a game) has two boxes,
// told apart by data-room.
window.AcewebChat = (function () {
  "use strict";

  const SHOWN = 100; // as the server keeps (chat.lines.SHOWN)
  let send = null;

  function boxFor(room) {
    const boxes = document.querySelectorAll("[data-chat]");
    return Array.from(boxes).find((box) => !room || box.dataset.room === room) || null;
  }

  function lineItem(box, line) {
    const item = document.createElement("li");
    item.className = "chat__line" + (line.removed ? " chat__line--removed" : "");
    item.dataset.id = line.id;
    item.dataset.user = line.user;
    if (line.removed) item.dataset.removed = "";
    const who = document.createElement("a");
    who.className = "chat__user";
    who.href = "/@/" + encodeURIComponent(line.user) + "/";
    who.textContent = line.user;
    const said = document.createElement("span");
    said.className = "chat__said";
    said.textContent = line.said;
    item.append(who, " ", said);
    addMenu(box, item);
    return item;
  }

  // A line's menu: report it (anyone signed in, not their own line); for
  // moderators also remove it, time its author out, clear the author's day.
  // One menu a box, opened under the line whose button was pressed; the
  // button's "⋯" is drawn by CSS, so a line's text is only what was said.
  function actsFor(box, item) {
    const acts = [];
    if (box.dataset.reportUrl && item.dataset.user !== box.dataset.me) acts.push(["report", gettext("Report this line")]);
    if (box.dataset.moderateUrl) {
      acts.push(["remove", gettext("Remove this line")], ["timeout", gettext("Time out of chat…")],
                ["clear", gettext("Clear this player's lines of the last day")]);
    }
    return "removed" in item.dataset ? [] : acts;
  }

  function addMenu(box, item) {
    if (!actsFor(box, item).length) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chat__menu-button";
    button.setAttribute("aria-label", interpolate(gettext("Menu of the line of %s"), [item.dataset.user]));
    button.setAttribute("aria-haspopup", "menu");
    button.setAttribute("aria-expanded", "false");
    button.addEventListener("click", () => openMenu(box, item, button));
    item.append(button);
  }

  function openMenu(box, item, button) {
    let menu = box.querySelector(".chat__menu");
    if (!menu) {
      menu = document.createElement("div");
      menu.className = "chat__menu";
      menu.setAttribute("role", "menu");
      menu.addEventListener("keydown", (event) => { if (event.key === "Escape") closeMenu(box, true); });
      box.append(menu);
    }
    const opener = box.querySelector('.chat__menu-button[aria-expanded="true"]');
    closeMenu(box, false);
    if (opener === button) return; // pressed again: closed
    menu.replaceChildren(...actsFor(box, item).map(([act, label]) => {
      const entry = document.createElement("button");
      entry.type = "button";
      entry.setAttribute("role", "menuitem");
      entry.textContent = label;
      entry.addEventListener("click", () => { closeMenu(box, false); actOn(box, item, act); });
      return entry;
    }));
    menu.style.top = `${item.offsetTop - item.parentElement.scrollTop + item.offsetHeight}px`;
    menu.hidden = false;
    button.setAttribute("aria-expanded", "true");
    menu.firstElementChild.focus();
  }

  function closeMenu(box, refocus) {
    const menu = box.querySelector(".chat__menu");
    if (menu) menu.hidden = true;
    const opener = box.querySelector('.chat__menu-button[aria-expanded="true"]');
    if (opener) {
      opener.setAttribute("aria-expanded", "false");
      if (refocus) opener.focus();
    }
  }

  async function actOn(box, item, act) {
    const fields = {};
    if (act === "timeout") {
      const dialog = box.querySelector("[data-chat-timeout]");
      dialog.showModal();
      const chosen = await new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true }));
      if (chosen !== "timeout") return;
      fields.minutes = dialog.querySelector("[name=minutes]").value;
      fields.reason = dialog.querySelector("[name=reason]").value;
    } else if (act !== "report" && !window.confirm(gettext("Are you sure?"))) {
      return;
    }
    const url = act === "report" ? box.dataset.reportUrl.replace("/0/", `/${item.dataset.id}/`)
      : box.dataset.moderateUrl.replace("/0/act/", `/${item.dataset.id}/${act}/`);
    const token = box.querySelector("[name=csrfmiddlewaretoken]");
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin", body: new URLSearchParams(fields),
      headers: { "X-CSRFToken": token ? token.value : "" },
    });
    let answer = {};
    try { answer = await response.json(); } catch (error) { answer = { message: response.statusText }; }
    box.querySelector("[data-chat-refused]").textContent = answer.message || "";
  }

  function show(box, line) {
    const list = box.querySelector("[data-chat-lines]");
    const old = list.querySelector(`[data-id="${line.id}"]`);
    if (old) { old.replaceWith(lineItem(box, line)); return; }
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.append(lineItem(box, line));
    while (list.children.length > SHOWN) list.firstElementChild.remove();
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  function receive(message) {
    const box = boxFor(message.room);
    if (!box) return;
    if (message.type === "chatLine") show(box, message.line);
    if (message.type === "chatRefused") box.querySelector("[data-chat-refused]").textContent = message.message;
  }

  function post(box, fields) {
    box.querySelector("[data-chat-refused]").textContent = "";
    if (send) send(Object.assign({ type: "chat", room: box.dataset.room }, fields));
  }

  // Who may write can change while the page is open (the organizer's switch, a
  // game's end): the page's script calls this with the new state.
  function setWritable(room, writable, closedText) {
    const box = boxFor(room);
    if (!box) return;
    box.querySelector("[data-chat-write]").hidden = !writable;
    const closed = box.querySelector("[data-chat-closed]");
    closed.hidden = writable;
    if (closedText !== undefined) closed.textContent = closedText;
  }

  function attach(sender) {
    send = sender;
    document.querySelectorAll("[data-chat]").forEach(wire);
  }

  function wire(box) {
    const list = box.querySelector("[data-chat-lines]");
    list.scrollTop = list.scrollHeight;
    list.querySelectorAll(".chat__line").forEach((item) => { if (!item.querySelector(".chat__menu-button")) addMenu(box, item); });
    const form = box.querySelector("[data-chat-form]");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = form.elements.text;
      if (!input.value.trim()) return;
      post(box, { text: input.value });
      input.value = "";
    });
    box.querySelectorAll("[data-preset]").forEach((button) => {
      button.addEventListener("click", () => post(box, { preset: button.dataset.preset }));
    });
  }

  // The rooms as the server has them now (a game's end opens the spectators'
  // room to its players): the boxes are made again from the JSON of games.chat.rooms_json.
  async function reload(url) {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) return;
    const { rooms } = await response.json();
    const holder = document.querySelector("[data-chat]") ? document.querySelector("[data-chat]").parentElement : null;
    if (!holder) return;
    for (const room of rooms) {
      let box = boxFor(room.room);
      if (!box) {
        box = boxFor(null).cloneNode(true); // the same markup, for the newly opened room
        box.dataset.room = room.room;
        box.querySelector("[data-chat-lines]").replaceChildren();
        box.querySelector(".chat__title").textContent = room.title;
        box.querySelector(".chat__title").id = "chat-title-" + room.room;
        box.setAttribute("aria-labelledby", "chat-title-" + room.room);
        holder.append(box);
        wire(box);
      }
      room.lines.forEach((line) => show(box, line));
      box.querySelector("[data-chat-form]").hidden = room.presets_only;
      const note = box.querySelector("[data-chat-presets-only]"); // RH36's sentence: gone with the team game
      if (note) note.hidden = !room.presets_only;
      setWritable(room.room, room.may_write);
    }
  }

  return { attach, receive, setWritable, reload };
})();

// Site-wide news for a signed-in player, on every page: the bell and its
// notifications, the "Your turn" list, an incoming challenge as a toast with
// Accept / Decline, the answer to one's own challenge, and off to a game the
// moment it starts. Uses the lobby socket with ?personal=1 (docs/protocol.md,
// "The lobby socket"), which carries only this user's own news, never the seek
// list. The lobby and profile pages run lobby.js on their own lobby socket
// instead (one socket a page), which hands the bell's and the turns' frames to
// window.acewebNotify.handle.
(function () {
  "use strict";

  const toasts = document.createElement("div");
  toasts.className = "toasts";
  toasts.dataset.toasts = "";
  toasts.setAttribute("aria-live", "polite");
  document.body.append(toasts);

  // --- The bell and "Your turn" (any page, whichever script owns the socket) ---

  const BELL_LATEST = 5;

  function setCount(node, count) {
    if (!node) return;
    node.textContent = String(count);
    node.hidden = count === 0;
  }

  function bellChanged(unread) {
    setCount(document.querySelector("[data-bell-count]"), unread);
    const label = document.querySelector("[data-bell-label]");
    if (label) label.textContent = interpolate(ngettext("%(counter)s unread", "%(counter)s unread", unread),
      { counter: unread }, true);
  }

  function noticeArrived(message) {
    bellChanged(message.unread);
    const list = document.querySelector("[data-bell-list]");
    if (list) {
      const link = element("a", "");
      link.href = "/notifications/" + message.id + "/";
      link.append(element("strong", "menu__title", message.title), " " + message.body);
      const item = element("li", "menu__unread");
      item.append(link);
      list.prepend(item);
      while (list.children.length > BELL_LATEST) list.lastElementChild.remove();
      const empty = document.querySelector("[data-bell-empty]");
      if (empty) empty.hidden = true;
    }
    // A challenge has its own toast, with Accept and Decline.
    if (message.kind !== "challenge") noticeToast(message);
  }

  function turnsChanged(message) {
    setCount(document.querySelector("[data-turns-count]"), message.count);
    const list = document.querySelector("[data-turns-list]");
    if (!list) return;
    list.replaceChildren(...message.games.map((game) => {
      const link = element("a", "", game.title + " \u00b7 " + game.opponents.join(", "));
      link.href = game.url;
      const item = element("li", "");
      item.append(link);
      return item;
    }));
    const empty = document.querySelector("[data-turns-empty]");
    if (empty) empty.hidden = message.games.length > 0;
  }

  function noticeToast(message) {
    const toast = element("div", "toast toast--note toast--notice");
    toast.setAttribute("role", "status");
    toast.dataset.notice = message.kind;
    const text = element("p", "toast__text");
    const link = element("a", "", message.title);
    link.href = "/notifications/" + message.id + "/";
    text.append(link, " " + message.body);
    const close = button("\u00d7", "toast__close", () => toast.remove());
    close.setAttribute("aria-label", gettext("Dismiss"));
    toast.append(text, close);
    toasts.append(toast);
    setTimeout(() => toast.remove(), 12000);
  }

  // The notify frames (docs/protocol.md, "Notifications and your turn"); true if it was one.
  function handleNotify(message) {
    switch (message.type) {
      case "notification": noticeArrived(message); return true;
      case "bell": bellChanged(message.unread); return true;
      case "turns": turnsChanged(message); return true;
    }
    return false;
  }

  // lobby.js, owning the page's socket, says when it is open (as this script
  // does for its own below): [data-toasts][data-connected] tells a page's socket is live.
  function connected(open) {
    toasts.dataset.connected = open ? "true" : "false";
  }

  window.acewebNotify = { handle: handleNotify, connected };

  if (document.querySelector("[data-lobby]")) return;  // lobby.js owns this page's socket

  const shown = new Map(); // challenge id -> its toast
  const queue = [];
  let socket = null;
  let retries = 0;
  let leavingFor = null;
  let opened = false;

  // --- The socket ---------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/lobby/?personal=1");
    socket.addEventListener("open", () => {
      // Back after a break: ask for the bell and the turns that may have changed meanwhile.
      if (opened) send({ type: "notify_sync" });
      opened = true;
      retries = 0;
      toasts.dataset.connected = "true";
      queue.splice(0).forEach(send);
    });
    socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      toasts.dataset.connected = "false";
      setTimeout(connect, Math.min(10000, 500 * 2 ** retries++));
    });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    else queue.push(message);
  }

  function handle(message) {
    if (handleNotify(message)) return;
    switch (message.type) {
      case "challenges":
        message.challenges.forEach(challengeChanged);
        break;
      case "challenge": challengeChanged(message.challenge); break;
      case "game_started": goOnce(message.url); break;
      case "error": note(message.message, true); break;
    }
  }

  // A second assign would abort the navigation under way (both sockets of a
  // player may announce the same game).
  function goOnce(url) {
    if (leavingFor === url || location.pathname === url) return;
    leavingFor = url;
    location.assign(url);
  }

  // --- Challenges ---------------------------------------------------------

  // What follows the challenger's name (and its BOT badge) in the toast.
  function invitation(c) {
    const colour = c.colour === "random" ? gettext("colours drawn at random")
      : interpolate(c.colour === "red" ? gettext("%(name)s plays red") : gettext("%(name)s plays black"),
        { name: c.challenger }, true);
    const and = " " + gettext("and") + " ";
    const values = { control: c.time_control.label, colour,
      teams: c.players === 4 ? c.challenger + and + c.partner + " v " + c.opponents.join(and) : "" };
    const format = c.players === 4
      ? (c.rated ? gettext(" challenges you to a rated %(control)s 4-player game: %(teams)s, %(colour)s.")
        : gettext(" challenges you to a casual %(control)s 4-player game: %(teams)s, %(colour)s."))
      : (c.rated ? gettext(" challenges you to a rated %(control)s game (%(colour)s).")
        : gettext(" challenges you to a casual %(control)s game (%(colour)s)."));
    return interpolate(format, values, true);
  }

  // A bot challenger (a BOT account: c.bots, docs/protocol.md) gets the site's BOT badge.
  function challenger(c) {
    const bot = c.bots && c.bots[c.challenger];
    if (!bot) return [c.challenger];
    const badge = element("span", "badge badge--bot", "BOT");
    badge.title = bot.title;
    return [c.challenger, " ", badge];
  }

  function challengeChanged(c) {
    if (c.status === "pending") {
      // A 4-player challenge this player has accepted already waits for the others: no toast.
      if (c.direction === "incoming" && !c.answered && !shown.has(c.id)) shown.set(c.id, challengeToast(c));
      return;
    }
    const toast = shown.get(c.id);
    if (toast) { toast.remove(); shown.delete(c.id); }
    const other = c.direction === "incoming" ? c.challenger : c.challenged;
    if (c.status === "declined" && c.declined_by && toast) {
      if (!("declined" in toast.dataset)) note(interpolate(gettext("%(name)s declined the 4-player challenge."), { name: c.declined_by }, true));
    } else if (c.direction === "outgoing" && c.status === "declined") {
      note(interpolate(gettext("%(name)s declined your challenge."), { name: c.declined_by || other }, true));
    }
    if (c.status === "expired") {
      note(interpolate(c.direction === "outgoing" ? gettext("The challenge to %(name)s expired.")
        : gettext("The challenge from %(name)s expired."), { name: other }, true));
    }
    if (c.direction === "incoming" && c.status === "cancelled" && toast) {
      note(interpolate(gettext("%(name)s withdrew their challenge."), { name: other }, true));
    }
  }

  function challengeToast(c) {
    const toast = element("div", "toast toast--challenge");
    toast.dataset.challenge = c.id;
    toast.setAttribute("role", "alert");
    const accept = button(gettext("Accept"), "button button--primary", () => {
      accept.disabled = true;
      send({ type: "accept_challenge", challenge: c.id });
    });
    const decline = button(gettext("Decline"), "button", () => {
      toast.dataset.declined = "";  // this player's own answer: no note about it
      send({ type: "decline_challenge", challenge: c.id });
    });
    const buttons = element("div", "toast__buttons");
    buttons.append(accept, decline);
    const text = element("p", "toast__text");
    text.append(...challenger(c), invitation(c));
    toast.append(text, buttons);
    toasts.append(toast);
    return toast;
  }

  // --- Toasts -------------------------------------------------------------

  function element(tag, className, text) {
    const node = document.createElement(tag);
    node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(label, className, onclick) {
    const node = element("button", className, label);
    node.type = "button";
    node.addEventListener("click", onclick);
    return node;
  }

  function note(text, error) {
    const toast = element("div", "toast toast--note" + (error ? " toast--error" : ""));
    toast.setAttribute("role", error ? "alert" : "status");
    const close = button("\u00d7", "toast__close", () => toast.remove());
    close.setAttribute("aria-label", gettext("Dismiss"));
    toast.append(element("p", "toast__text", text), close);
    toasts.append(toast);
    setTimeout(() => toast.remove(), 8000);
  }

  connect();
})();

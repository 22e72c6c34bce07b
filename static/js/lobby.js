// The lobby socket (docs/protocol.md, "The lobby socket"): the live seek list,
// the Create and Challenge forms, open challenges, the rated pool ("Play
// rated"), and off to the game the moment one starts. Plain JS; the page works
// without it through its forms, except the pool, which lasts as long as the socket.
(function () {
  "use strict";

  const root = document.querySelector("[data-lobby]");
  if (!root) return;

  const seeksBody = document.querySelector("[data-seeks]");
  const seeksEmpty = document.querySelector("[data-seeks-empty]");
  const challengeList = root.querySelector("[data-challenges]");
  const challengesEmpty = root.querySelector("[data-challenges-empty]");
  const notice = root.querySelector("[data-notice]");
  const challenges = new Map();
  const queue = [];
  let socket = null;
  let retries = 0;
  let opened = false;

  // --- The socket ---------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/lobby/");
    socket.addEventListener("open", () => {
      // Back after a break, signed in: the bell and the turns may have changed meanwhile.
      if (opened && document.querySelector("[data-bell]")) send({ type: "notify_sync" });
      opened = true;
      retries = 0;
      if (window.acewebNotify) window.acewebNotify.connected(true);
      queue.splice(0).forEach(send);
      rejoinPool();
    });
    socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (window.acewebNotify) window.acewebNotify.connected(false);
      const delay = Math.min(10000, 500 * 2 ** retries++);
      setTimeout(connect, delay);
    });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    else queue.push(message);
  }

  function handle(message) {
    // The bell and "Your turn" of the navigation bar (static/js/notify.js).
    if (window.acewebNotify && window.acewebNotify.handle(message)) return;
    switch (message.type) {
      case "seeks": renderSeeks(message.seeks); break;
      case "challenges":
        challenges.clear();
        message.challenges.forEach((c) => challenges.set(c.id, c));
        renderChallenges();
        break;
      case "challenge": updateChallenge(message.challenge); break;
      case "pool": showPool(message.pool); break;
      case "game_started": location.assign(message.url); break;
      case "error":
        if (ownWait && !waitShown) ownWait = null;  // the join was refused
        say(message.message, true);
        break;
    }
  }

  // --- Drawing ------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([key, value]) => {
      if (key === "dataset") Object.assign(node.dataset, value);
      else if (key === "onclick") node.addEventListener("click", value);
      else node.setAttribute(key, value);
    });
    children.forEach((child) => node.append(child));
    return node;
  }

  function button(label, primary, onclick) {
    return el("button", { class: primary ? "button button--primary" : "button", type: "button", onclick }, label);
  }

  // A name, with the BOT badge after it if the payload's `bots` flags it
  // (the badge the server writes: games templatetags bot_badge).
  function named(name, bots) {
    const bot = bots && bots[name];
    if (!bot) return [name];
    return [name, " ", el("span", { class: "badge badge--bot", title: bot.title }, "BOT")];
  }

  // Names joined by `separator`, each flagged as `named` flags it.
  function namedList(names, bots, separator) {
    return names.flatMap((name, i) => [...(i ? [separator] : []), ...named(name, bots)]);
  }

  const COLOUR_NAMES = { red: gettext("Red"), black: gettext("Black"), random: gettext("Random") };
  const OPPOSITE = { red: "black", black: "red", random: "random" };

  // The "You play" column: the viewer's colour if the game starts. A seek holds
  // its creator's wish, so anyone else would play the opposite.
  function youPlay(seek) {
    if (seek.players === 4) return gettext("Team");  // the teams are paired when the fourth joins
    return COLOUR_NAMES[seek.mine ? seek.colour : OPPOSITE[seek.colour]];
  }

  // lichess's speed names as the server's TimeControl.speed gives them, in the reader's language.
  const SPEEDS = {
    bullet: pgettext("game speed", "bullet"), blitz: pgettext("game speed", "blitz"),
    rapid: pgettext("game speed", "rapid"), classical: pgettext("game speed", "classical"),
    correspondence: pgettext("game speed", "correspondence"),
  };
  const speedLabel = (speed) => SPEEDS[speed] || speed;

  function renderSeeks(seeks) {
    if (!seeksBody) return;
    const signedIn = Boolean(root.dataset.user);
    seeksBody.replaceChildren(...seeks.map((seek) => {
      const team = seek.players === 4;
      const classes = "seek" + (seek.mine ? " seek--mine" : "") + (team ? " seek--team" : "");
      return el("tr", { class: classes, dataset: { seek: seek.id } },
        el("td", { class: "seek__player" }, ...named(seek.creator, seek.bots), ...(team ? [seats(seek)] : [])),
        el("td", { class: "seek__rating" }, seek.rating === null ? "?" : String(seek.rating)),
        el("td", { class: "seek__time" }, el("span", { class: "seek__game" }, seek.rules.title),
          team ? " " + gettext("4 players") + " " : " ",
          seek.time_control.label + " ", el("span", { class: "muted" }, speedLabel(seek.time_control.speed))),
        el("td", { class: "seek__mode" }, seek.rated ? gettext("Rated") : gettext("Casual")),
        el("td", { "data-label": seeksBody.dataset.youPlay || "", class: "seek__colour" }, youPlay(seek)),
        el("td", { class: "seek__action" }, signedIn ? seekAction(seek) : ""));
    }));
    if (seeksEmpty) seeksEmpty.hidden = seeks.length > 0;
  }

  // "3 of 4 joined: alice, bob, carol": a 4-player seek fills live.
  function seats(seek) {
    const held = seek.held ? [" ", ...around(gettext("(a seat is held for %(partner)s)"), "partner",
      named(seek.partner, seek.bots))] : [];
    const joined = interpolate(ngettext("%(n)s of 4 joined:", "%(n)s of 4 joined:", seek.joined.length),
      { n: seek.joined.length }, true);
    return el("span", { class: "seek__seats", dataset: { seekSeats: "" } },
      joined + " ", ...namedList(seek.joined, seek.bots, ", "), ...held);
  }

  // A translated sentence with one name in it that carries a badge: the text
  // around the %(key)s placeholder, and the name's nodes in its place.
  function around(format, key, nodes) {
    const [before, after] = format.split("%(" + key + ")s");
    return [before, ...nodes, after === undefined ? "" : after];
  }

  function seekAction(seek) {
    if (seek.mine) return button(gettext("Cancel"), false, () => send({ type: "cancel", seek: seek.id }));
    if (seek.players !== 4) return button(gettext("Accept"), true, () => send({ type: "accept", seek: seek.id }));
    if (seek.joined_me) return button(gettext("Leave"), false, () => send({ type: "leave", seek: seek.id }));
    return button(gettext("Join"), true, () => send({ type: "join", seek: seek.id }));
  }

  // A 4-player challenge (Rhombus teams): "alice and bob v charlie and dave; accepted: bob".
  function teams(c) {
    return c.challenger + " " + gettext("and") + " " + c.partner + " v " + c.opponents.join(" " + gettext("and") + " ") +
      "; " + accepted(c);
  }

  function accepted(c) {
    return gettext("accepted:") + " " + (c.accepted.length ? c.accepted.join(", ") : gettext("nobody yet"));
  }

  // The same, its players' names flagged BOT where they are bots (the list's line).
  function teamsNamed(c) {
    const and = " " + gettext("and") + " ";
    return [...named(c.challenger, c.bots), and, ...named(c.partner, c.bots), " v ",
      ...namedList(c.opponents, c.bots, and), "; " + accepted(c)];
  }

  const CHALLENGER_PLAYS = { red: gettext("challenger plays red"), black: gettext("challenger plays black"),
    random: gettext("challenger plays random") };

  // A challenge's line in the list, as _challenges.html writes it: text and badges.
  function describe(c) {
    const team = c.players === 4;
    const who = c.direction === "incoming"
      ? around(team ? gettext("%(challenger)s challenges you to a 4-player game") : gettext("%(challenger)s challenges you"),
        "challenger", named(c.challenger, c.bots))
      : team ? [gettext("You challenged") + " ", ...named(c.partner, c.bots), ", ", ...namedList(c.opponents, c.bots, ", ")]
        : around(gettext("You challenged %(challenged)s"), "challenged", named(c.challenged, c.bots));
    return [...who, ": " + c.rules.title + ", " + c.time_control.label + ", " + (c.rated ? gettext("rated") : gettext("casual")) +
      ", " + CHALLENGER_PLAYS[c.colour], ...(team ? [" (", ...teamsNamed(c), ")"] : [])];
  }

  function renderChallenges() {
    if (!challengeList) return;
    challengeList.replaceChildren(...[...challenges.values()].map((c) => {
      const accept = c.answered ? [] : [button(gettext("Accept"), true, () => send({ type: "accept_challenge", challenge: c.id }))];
      const buttons = c.direction === "incoming"
        ? [...accept, button(gettext("Decline"), false, () => send({ type: "decline_challenge", challenge: c.id }))]
        : [button(gettext("Cancel"), false, () => send({ type: "cancel_challenge", challenge: c.id }))];
      return el("li", { class: "challenge challenge--" + c.direction, dataset: { challenge: c.id } },
        el("span", { class: "challenge__text" }, ...describe(c)), ...buttons);
    }));
    if (challengesEmpty) challengesEmpty.hidden = challenges.size > 0;
  }

  function updateChallenge(c) {
    const known = challenges.has(c.id);
    if (c.status === "pending") {
      challenges.set(c.id, c);
      const team = c.players === 4;
      if (!known && c.direction === "incoming") say(team
        ? interpolate(gettext("%(challenger)s challenges you to a %(control)s 4-player game (%(teams)s)."),
          { challenger: c.challenger, control: c.time_control.label, teams: teams(c) }, true)
        : interpolate(gettext("%(challenger)s challenges you to a %(control)s game."),
          { challenger: c.challenger, control: c.time_control.label }, true));
      if (!known && c.direction === "outgoing") say(interpolate(gettext("Challenge sent to %(names)s: waiting for an answer."),
        { names: team ? [c.partner, ...c.opponents].join(", ") : c.challenged }, true));
    } else {
      challenges.delete(c.id);
      const other = c.direction === "incoming" ? c.challenger : c.challenged;
      const me = root.dataset.user;
      const endings = {
        declined: c.declined_by && c.declined_by !== me
          ? interpolate(gettext("%(name)s declined the 4-player challenge."), { name: c.declined_by }, true)
          : c.direction === "outgoing" ? interpolate(gettext("%(name)s declined your challenge."), { name: other }, true)
            : gettext("Challenge declined."),
        cancelled: c.direction === "incoming"
          ? interpolate(gettext("%(name)s withdrew their challenge."), { name: other }, true) : gettext("Challenge cancelled."),
        expired: interpolate(c.direction === "outgoing" ? gettext("The challenge to %(name)s expired.")
          : gettext("The challenge from %(name)s expired."), { name: other }, true),
      };
      if (endings[c.status]) say(endings[c.status]);
    }
    renderChallenges();
  }

  function say(text, error) {
    if (!notice) return;
    notice.textContent = text;
    notice.classList.toggle("lobby__notice--error", Boolean(error));
    // A refusal answers a click far down the page (Create seek): bring it into sight.
    if (error) notice.scrollIntoView({ block: "nearest" });
  }

  // --- The rated pool -----------------------------------------------------
  // The server sends {"type": "pool"} with the wait (or null) whenever it
  // changes and each time the window widens; the waiting time is counted here.

  const poolButtons = root.querySelector("[data-pool-buttons]");
  const poolWaiting = root.querySelector("[data-pool-waiting]");
  let ownWait = null;  // {time_control, rules} this page joined: joined again after a reconnect
  let waitShown = false;
  let waitTimer = null;

  function poolField(name) {
    return poolWaiting.querySelector("[data-pool-" + name + "]");
  }

  function minutesSeconds(ms) {
    const seconds = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  function showPool(wait) {
    if (!poolWaiting) return;
    clearInterval(waitTimer);
    waitShown = Boolean(wait);
    poolWaiting.hidden = !wait;
    poolButtons.hidden = Boolean(wait);
    if (!wait) {
      ownWait = null;
      return;
    }
    poolField("rules").textContent = wait.players === 4
      ? interpolate(gettext("%(game)s 4-player"), { game: wait.rules.title }, true) : wait.rules.title;
    poolField("whom").textContent = wait.players === 4 ? gettext("table") : gettext("opponent");
    poolField("control").textContent = wait.time_control.label;
    poolField("rating").textContent = String(wait.rating);
    poolField("window").textContent = wait.window.low + "–" + wait.window.high + " (±" + wait.window.width + ")";
    const since = Date.now() - wait.waited_ms;
    const tick = () => { poolField("waited").textContent = minutesSeconds(Date.now() - since); };
    tick();
    waitTimer = setInterval(tick, 1000);
  }

  function rejoinPool() {
    // Closing a socket leaves the pool: a page that was waiting joins again;
    // any other page forgets what it showed and hears the truth on connect.
    if (ownWait) send({ type: "pool_join", ...ownWait });
    else showPool(null);
  }

  if (poolButtons) {
    // 4 players only with Rhombus's rules (RH31), as in the Create form.
    const poolFour = poolButtons.querySelector('input[name="pool-players"][value="4"]');
    const poolTwo = poolButtons.querySelector('input[name="pool-players"][value="2"]');
    const fitPoolPlayers = () => {
      const rules = poolButtons.querySelector('input[name="pool-rules"]:checked');
      poolFour.disabled = !(rules && rules.value.startsWith("rhombus"));
      if (poolFour.disabled && poolFour.checked) poolTwo.checked = true;
    };
    poolButtons.addEventListener("change", fitPoolPlayers);
    fitPoolPlayers();
    poolButtons.querySelectorAll("[data-pool-join]").forEach((button) => {
      button.disabled = false;
      button.addEventListener("click", () => {
        const rules = poolButtons.querySelector('input[name="pool-rules"]:checked');
        ownWait = { time_control: button.dataset.poolJoin, rules: rules ? rules.value : "ace-in-the-hole",
                    players: poolFour.checked ? 4 : 2 };
        send({ type: "pool_join", ...ownWait });
      });
    });
    poolWaiting.querySelector("[data-pool-leave]").addEventListener("click", () => {
      ownWait = null;
      send({ type: "pool_leave" });
    });
  }

  // --- Forms --------------------------------------------------------------

  function options(form) {
    const data = new FormData(form);
    return {
      rules: data.get("rules") || "ace-in-the-hole", time_control: data.get("time_control"),
      rated: data.get("mode") === "rated", colour: data.get("colour"),
    };
  }

  const seekForm = root.querySelector("[data-seek-form]");
  if (seekForm) {
    // 4 players only with Rhombus's rules (RH31); the server checks it too.
    const four = seekForm.querySelector('input[name="players"][value="4"]');
    const two = seekForm.querySelector('input[name="players"][value="2"]');
    const partnerField = seekForm.querySelector("[data-partner-field]");
    const fitPlayers = () => {
      const rules = new FormData(seekForm).get("rules") || "";
      four.disabled = !rules.startsWith("rhombus");
      if (four.disabled && four.checked) two.checked = true;
      partnerField.hidden = !four.checked;
    };
    seekForm.addEventListener("change", fitPlayers);
    fitPlayers();
    seekForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(seekForm);
      const players = Number(data.get("players") || 2);
      const partner = players === 4 ? String(data.get("partner") || "").trim() : "";
      send({ type: "seek", ...options(seekForm), players, ...(partner ? { partner } : {}) });
    });
  }

  const challengeForm = root.querySelector("[data-challenge-form]");
  if (challengeForm) {
    // 4 players (Rhombus teams): a partner and two opponents, the profile's player named first.
    const four = challengeForm.querySelector('input[name="players"][value="4"]');
    const two = challengeForm.querySelector('input[name="players"][value="2"]');
    const teamFields = challengeForm.querySelector("[data-team-fields]");
    const fitPlayers = () => {
      const rules = new FormData(challengeForm).get("rules") || "";
      four.disabled = !rules.startsWith("rhombus");
      if (four.disabled && four.checked) two.checked = true;
      teamFields.hidden = !four.checked;
    };
    if (four) {
      challengeForm.addEventListener("change", fitPlayers);
      fitPlayers();
    }
    challengeForm.addEventListener("submit", (event) => {
      event.preventDefault();
      if (four && four.checked) {
        const data = new FormData(challengeForm);
        const name = (field) => String(data.get(field) || "").trim();
        send({ type: "challenge", ...options(challengeForm), players: 4, partner: name("partner"),
               opponents: [name("opponent1"), name("opponent2")] });
      } else {
        send({ type: "challenge", username: challengeForm.dataset.username, ...options(challengeForm) });
      }
    });
  }

  connect();
})();

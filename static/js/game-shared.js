// What every live game page shares, whatever the game: one websocket
// (docs/protocol.md) with reconnects and resyncs, the per-seat clocks, the
// status line, the buttons (resign, abort, claim, rematch), the first-move
// note, presence, ratings, bots, the result and the typed-notation box.
//
// A game's own script (game.js for Ace in the Hole, rhombus.js for Rhombus)
// calls GamePage.start(renderer) with what only it knows: how to name a seat,
// how to draw the board and hands, and how a player builds an action. The
// server is the authority on everything: a page only offers the strings in
// `legal` (Ace in the Hole) or the uses the server's `options` answers name
// (Rhombus), and shows the server's refusals.
(function () {
  "use strict";

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role" || key === "title") node.setAttribute(key, value);
      else node[key] = value;
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  // Notation as the rules write it ("5H e1-e6", "7D 0"): kept apart from the
  // words around it and never translated, by a person's browser or by a reader
  // (issue 35: outside such a span, a page says things in words).
  function notation(text, className) {
    const node = el("span", { class: className ? `notation ${className}` : "notation", text });
    node.setAttribute("translate", "no");
    return node;
  }

  function formatMs(ms) {
    ms = Math.max(0, ms);
    const total = Math.floor(ms / 1000);
    const days = Math.floor(total / 86400);
    const hours = Math.floor((total % 86400) / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = String(total % 60).padStart(2, "0");
    if (days) return interpolate(pgettext("clock", "%(days)sd %(hours)sh"), { days: days, hours: hours }, true);
    if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
    if (ms < 10000) return `0:${seconds}.${Math.floor((ms % 1000) / 100)}`;
    return `${minutes}:${seconds}`;
  }

  // renderer: {
  //   seatLabel(seat)       "Red", "SW"
  //   fairnessRule          the rule that publishes the seed ("R19", "RH30")
  //   scoreText(game)       "" or " · points 40–20" after a rules ending
  //   counts(seat)          the text of a player bar's counts
  //   render(page)          draw the game's own parts (board, hands, moves)
  //   newState(moved)       a state arrived: drop a selection that no longer fits
  //   clearSelection()      Escape
  //   refused()             optional: the server refused what was sent
  //   receive(message)      optional: a message of a type this file does not know ("options")
  // }
  function start(renderer) {
    const root = document.getElementById("game");
    if (!root) return null;
    const $ = (id) => document.getElementById(id);

    let state = null;          // the last sync/update, whole
    let received = 0;          // performance.now() when it arrived
    let receivedWallClock = 0; // and Date.now(), to compare with the server's turn_started_at
    let pending = false;       // an act is on its way: no double sends
    let flagSentAt = -Infinity; // performance.now() of our last flag: one every few seconds at most
    let sawNoRematchGame = false;
    let socket = null;
    let retries = 0;

    // --- Derived facts ----------------------------------------------------

    const isPlayer = () => Boolean(state && state.seat);
    const running = () => Boolean(state) && state.game.status === "running";
    const myTurn = () => isPlayer() && running() && state.to_move === state.seat;
    const seats = () => state.game.seats;
    const label = (seat) => renderer.seatLabel(seat);

    // What the game's renderer may use.
    const page = {
      root, $, el,
      state: () => state,
      isPlayer, running, myTurn,
      sendAction, showError, send,
      renderStatus: () => state && renderStatus(),
    };

    // --- Drawing ----------------------------------------------------------

    function render() {
      if (!state) return;
      root.dataset.state = "live";
      root.dataset.ply = String(state.ply);
      root.dataset.status = state.game.status;
      root.dataset.toMove = state.to_move;
      renderer.render(page);
      renderPlayers();
      renderStatus();
      renderButtons();
      renderFairness();
      renderClocks();
      renderNextRound();
    }

    // A finished tournament game: when the next round starts, as lichess
    // shows it, asked of the event's page + "next/" (tournaments/views.py next_round).
    let nextRound = null; // {at: ms since the epoch, or null while the round is on; url}
    let nextAsked = 0;
    function renderNextRound() {
      const box = $("game-next-round");
      const event = state.game.event;
      if (!box) return;
      if (running() || !event || !event.url) { box.hidden = true; return; }
      if (Date.now() - nextAsked > 10000) askNextRound(event.url);
      box.hidden = !nextRound;
      if (!nextRound) return;
      const back = el("a", { href: nextRound.url, text: gettext("Back to the tournament") });
      if (nextRound.at === null) {
        box.replaceChildren(gettext("Next round when this round's other games end") + " \u00b7 ", back);
        return;
      }
      const left = Math.max(0, Math.round((nextRound.at - Date.now()) / 1000));
      const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      box.replaceChildren(interpolate(gettext("Next round in %(time)s"), { time: time }, true) + " \u00b7 ", back);
    }

    async function askNextRound(url) {
      nextAsked = Date.now();
      try {
        const response = await fetch(`${url}next/`, { credentials: "same-origin" });
        if (!response.ok) return;
        const next = await response.json();
        const on = ["running", "paused"].includes(next.status);
        nextRound = on ? { at: next.next_round_at ? Date.parse(next.next_round_at) : null, url: next.url } : null;
      } catch (error) {
        return; // offline for a moment: asked again in 10 s
      }
      if (state) renderNextRound();
    }

    function renderPlayers() {
      const presence = state.game.presence || null;
      for (const seat of seats()) {
        const bar = root.querySelector(`[data-player="${seat}"]`);
        if (!bar) continue;
        bar.classList.toggle("player--to-move", running() && state.to_move === seat);
        const counts = bar.querySelector("[data-counts]");
        if (counts) counts.textContent = renderer.counts(seat);
        const botSeat = state.game.bot && state.game.bot.seats[seat];
        const botAccount = Boolean(state.game.bot && (state.game.bot.accounts || []).includes(seat));
        renderBotTag(bar, botSeat || (botAccount ? { label: null } : null));
        renderRating(bar, seat);
        const dot = bar.querySelector("[data-presence]");
        dot.hidden = !presence || Boolean(botSeat); // a bot has no sockets: "offline" would mislead
        if (presence) {
          dot.classList.toggle("player__presence--on", Boolean(presence[seat]));
          dot.title = presence[seat] ? gettext("online") : gettext("offline");
        }
      }
    }

    // A rated game just ended: the new rating and the change at once, as lichess
    // shows them (game.ratings, docs/protocol.md); until then the page's own rating.
    function renderRating(bar, seat) {
      const rating = state.game.ratings && state.game.ratings[seat];
      if (!rating) return;
      const change = rating.change;
      const trend = change > 0 ? "up" : change < 0 ? "down" : "same";
      const sign = change > 0 ? "+" : change < 0 ? "\u2212" : "\u00b1";
      bar.querySelector("[data-rating]").replaceChildren(`${rating.after} `, el("span", {
        class: `player__rating-change player__rating-change--${trend}`, "data-rating-change": seat,
        text: `${sign}${Math.abs(change)}`, title: interpolate(gettext("rating before this game: %(rating)s"), { rating: rating.before }, true),
      }));
    }

    // --- Bots (games/bots.py): a BOT tag, "thinking", or no worker yet ------

    const BOT_LATE_MS = 5000; // games.botwaits.WORKER_LATE_SECONDS
    let botWait = { ply: null, since: 0, timer: null };

    function renderBotTag(bar, seat) {
      let tag = bar.querySelector("[data-bot]");
      if (seat && !tag) {
        tag = el("span", { class: "player__bot", "data-bot": "", text: "BOT" });
        bar.querySelector(".player__name").after(tag);
      }
      if (tag) {
        tag.hidden = !seat;
        // A computer player names its level; a BOT account is someone's program (through the API).
        tag.title = !seat ? "" : seat.label ? interpolate(gettext("Computer player: %(level)s"), { level: seat.label }, true)
          : gettext("BOT account: a program playing through the API");
      }
    }

    // The status line while a bot is to move, or null. "Waiting for a bot worker"
    // once no worker has taken the move for a few seconds (by the server's
    // clock on a fresh load, by ours while watching).
    function botStatus() {
      const wait = state.game.bot && state.game.bot.waiting;
      if (!running() || !wait || wait.ply !== state.ply) {
        root.dataset.bot = "";
        return null;
      }
      const name = state.game.players[state.to_move];
      if (botWait.ply !== state.ply) {
        window.clearTimeout(botWait.timer);
        botWait = { ply: state.ply, since: performance.now(), timer: window.setTimeout(() => state && renderStatus(), BOT_LATE_MS + 50) };
      }
      const late = !wait.started_at && (wait.worker_late || performance.now() - botWait.since >= BOT_LATE_MS);
      root.dataset.bot = late ? "waiting" : "thinking";
      if (late) return interpolate(gettext("Waiting for a bot worker: %(name)s moves as soon as one runs"), { name: name }, true);
      return interpolate(gettext("%(name)s (computer) is thinking…"), { name: name }, true);
    }

    // A side is one seat ("red", "SW") or partners joined by "+" ("SW+NE").
    function sideText(game, side) {
      const members = side.split("+");
      const names = members.map((seat) => game.players[seat]).join(" & ");
      return `${members.map(label).join("+")} (${names})`;
    }

    function resultText(game) {
      if (game.status === "aborted") return gettext("Game aborted");
      // The ending as the server words it everywhere (games/results.py).
      const reason = (game.ending || game.reason || "") +
        (game.adjudication ? ` (${game.adjudication})` : "");
      // The server says when both sides lost (a double forfeit, "0-0"): never a draw.
      if (game.result === "0-0") return gettext("Both players lost by forfeit (no-show)");
      const score = renderer.scoreText ? renderer.scoreText(game) : "";
      if (!game.winner) return interpolate(gettext("Draw %(how)s"), { how: reason }, true) + score;
      const side = sideText(game, game.winner);
      const won = game.winner.includes("+") // partners win together (RH35)
        ? gettext("%(side)s win %(how)s") : gettext("%(side)s wins %(how)s");
      return interpolate(won, { side: side, how: reason }, true) + score;
    }

    function renderStatus() {
      const game = state.game;
      const status = $("game-status");
      status.classList.toggle("game-status--over", !running());
      root.dataset.bot = "";
      if (!running()) status.textContent = resultText(game);
      else if (myTurn()) status.textContent = gettext("Your turn");
      else status.textContent = botStatus() || interpolate(gettext("%(seat)s (%(name)s) to move"),
        { seat: label(state.to_move), name: game.players[state.to_move] }, true);
      const mini = $("game-status-mini"); // the same line above the board, for phones
      mini.textContent = status.textContent;
      mini.classList.toggle("game-status--over", !running());
      renderRematch();
    }

    // Later updates (presence changes as sockets close) must not start the same
    // navigation again: a second assign aborts the first one under way.
    let leavingFor = null;
    function goOnce(url) {
      if (leavingFor === url) return;
      leavingFor = url;
      window.location.assign(url);
    }

    function renderRematch() {
      const rematch = state.game.rematch || null;
      const note = $("game-rematch");
      note.hidden = true;
      if (!rematch) return;
      if (rematch.game_id) {
        if (sawNoRematchGame) { goOnce(`/games/${rematch.game_id}/`); return; }
        note.hidden = false;
        note.replaceChildren(el("a", { href: `/games/${rematch.game_id}/`, text: interpolate(gettext("Rematch: game %(id)s \u2192"), { id: rematch.game_id }, true) }));
      } else {
        sawNoRematchGame = true;
        const others = (rematch.offered_by || []).filter((seat) => seat !== state.seat);
        if (others.length) {
          note.hidden = false;
          const names = others.map(label).reduce((first, second) =>
            interpolate(gettext("%(first)s and %(second)s"), { first: first, second: second }, true));
          note.textContent = interpolate(ngettext("%(names)s offers a rematch", "%(names)s offer a rematch", others.length),
            { names: names }, true);
        }
      }
    }

    function claimOpen() {
      const at = state.game.claim_win_at;
      return Boolean(at) && Date.now() >= Date.parse(at);
    }

    function renderButtons() {
      const replay = $("game-replay");
      if (replay) replay.hidden = running(); // everyone, spectators too, once it is over
      const box = $("game-buttons");
      if (!box) return;
      const show = (command, visible, text) => {
        const button = box.querySelector(`[data-command="${command}"]`);
        if (!button) return null; // not on this page (a tournament game has no rematch)
        button.hidden = !visible;
        if (text) button.textContent = text;
        return button;
      };
      const player = isPlayer();
      show("resign", player && running());
      // Until every seat has acted once (R17, RH27); tournament games: no abort.
      show("abort", player && running() && state.ply < seats().length && !state.game.event);
      show("claim", player && running() && claimOpen());
      const rematch = state.game.rematch || {};
      const offered = gettext("Rematch offered");
      let text = gettext("Rematch");
      const offers = rematch.offered_by || [];
      if (offers.includes(state.seat)) text = offered;
      else if (offers.length) text = gettext("Accept rematch");
      // A tournament game has no rematch: the next game is the next round's.
      const button = show("rematch", player && !running() && !rematch.game_id && !state.game.event, text);
      if (button) button.disabled = text === offered;
      const form = $("notation");
      if (form) form.hidden = !(player && running());
    }

    // Games that end without being played out are unrated whatever they were
    // set up as (games.finishing): say why, not "casual" (a rated tournament's game).
    const unrated = () => ({ "adjudication": gettext("unrated: adjudicated"), "no-show": gettext("unrated: forfeit"),
      "aborted": gettext("unrated: aborted") });

    function renderFairness() {
      const game = state.game;
      const parts = [`${game.clock.time_control} · ${game.rated ? gettext("rated") : (unrated()[game.reason] || gettext("casual"))}`];
      const commitment = game.commitment.slice(0, 12);
      parts.push(game.seed ? interpolate(gettext("seed %(seed)s (commitment %(commitment)s…)"), { seed: game.seed, commitment: commitment }, true)
        : interpolate(gettext("commitment %(commitment)s…"), { commitment: commitment }, true));
      $("fairness").textContent = parts.join(" · ");
      $("fairness").title = interpolate(gettext("SHA-256 commitment to the seed (%(rule)s): %(commitment)s"),
        { rule: renderer.fairnessRule, commitment: game.commitment }, true);
    }

    // --- Clocks: the server's numbers, run down locally --------------------

    function remainingMs(seat) {
      const clock = state.game.clock;
      const base = clock.ms[seat];
      if (clock.running !== seat || !clock.turn_started_at) return base;
      // Charged since the turn began (server time), measured from the message's arrival.
      const atArrival = Math.max(0, receivedWallClock - Date.parse(clock.turn_started_at)) || 0;
      return base - atArrival - (performance.now() - received);
    }

    function renderClocks() {
      if (!state) return;
      const clock = state.game.clock;
      for (const seat of seats()) {
        const node = root.querySelector(`[data-clock="${seat}"]`);
        if (!node) continue;
        const ms = remainingMs(seat);
        node.textContent = formatMs(ms);
        node.classList.toggle("clock--running", clock.running === seat);
        node.classList.toggle("clock--low", ms < 20000 && !clock.days_per_move);
        if (clock.running === seat && ms <= 0 && isPlayer() && running() && performance.now() - flagSentAt > 3000) {
          flagSentAt = performance.now(); // the server decides: the ending, or "still has time"
          send({ type: "flag" });
        }
      }
      const claim = $("game-buttons") && $("game-buttons").querySelector('[data-command="claim"]');
      if (claim && claim.hidden === (isPlayer() && running() && claimOpen())) renderButtons();
      renderFirstMove();
    }

    // Real-time clocks start once each seat has moved; until then the seat to
    // move has a short window (clock.abort_at), or the server aborts the game.
    function renderFirstMove() {
      const note = $("game-first-move");
      const abortAt = running() && state.game.clock.abort_at;
      note.hidden = !abortAt;
      keepRoomForFirstMove(note);
      if (!abortAt) return;
      const left = Math.max(0, Math.ceil((Date.parse(abortAt) - Date.now()) / 1000));
      const seat = state.to_move;
      note.textContent = myTurn()
        ? interpolate(gettext("Make your first move within %(seconds)s s, or the game is aborted."), { seconds: left }, true)
        : interpolate(gettext("%(seat)s (%(name)s) has %(seconds)s s to make a first move, or the game is aborted."),
          { seat: label(seat), name: state.game.players[seat], seconds: left }, true);
      if (left === 0 && isPlayer() && performance.now() - flagSentAt > 3000) {
        flagSentAt = performance.now(); // the server aborts it, or says there is still time
        send({ type: "flag" });
      }
      keepRoomForFirstMove(note);
    }

    // On a phone the warning is a banner fixed to the top of the screen
    // (game.css): the page is pushed down by its height, measured each tick as
    // its text changes, so that it never covers the navigation.
    function keepRoomForFirstMove(note) {
      const height = note.hidden ? 0 : Math.ceil(note.getBoundingClientRect().height);
      document.documentElement.style.setProperty("--first-move-room", `${height}px`);
    }

    // --- Acting -------------------------------------------------------------

    function sendAction(text) {
      if (!state || pending) return false;
      showError(null);
      if (send({ type: "act", ply: state.ply, action: text })) pending = true;
      return pending;
    }

    function showError(message) {
      const box = $("game-error");
      box.hidden = !message;
      box.textContent = message || "";
    }

    // --- The socket ---------------------------------------------------------

    function send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        showError(gettext("Not connected: wait for the connection to come back."));
        return false;
      }
      socket.send(JSON.stringify(message));
      return true;
    }

    function setConnection(text) {
      const note = $("game-connection");
      note.hidden = !text;
      note.textContent = text || "";
      root.dataset.connection = text ? "down" : "up";
    }

    // Staying in step (docs/protocol.md): every beat and pong says where the game
    // is; a page behind it asks for the whole state at once, at most once a second.
    let resyncAsked = 0;
    function behind(step) {
      if (!state) return false;
      return step.ply > state.ply || (step.ply === state.ply && step.status !== state.game.status);
    }
    function resyncIfBehind(step) {
      if (!behind(step) || performance.now() - resyncAsked < 1000) return;
      resyncAsked = performance.now();
      send({ type: "sync" });
    }

    // A Rhombus update carries only the actions from `actions_from` on (docs/protocol.md):
    // join them to those this page has. A page missing some asks for the whole state.
    function withEarlierActions(message) {
      if (!message.actions_from) return true;
      const had = (state && state.actions) || [];
      if (message.actions_from > had.length) {
        send({ type: "sync" });
        return false;
      }
      message.actions = had.slice(0, message.actions_from).concat(message.actions);
      return true;
    }

    function onMessage(event) {
      const message = JSON.parse(event.data);
      if (message.type === "beat" || message.type === "pong") {
        resyncIfBehind(message);
      } else if (message.type === "sync" || message.type === "update") {
        if (state && message.ply < state.ply) return; // an older state than the one shown
        if (!withEarlierActions(message)) return;
        const moved = !state || state.ply !== message.ply;
        const ended = state && state.game.status === "running" && message.game.status !== "running";
        state = message; // replace, never merge
        if (ended && window.AcewebChat) AcewebChat.reload($("game-chat").dataset.url); // the rooms open up
        received = performance.now();
        receivedWallClock = Date.now();
        pending = false;
        renderer.newState(page, moved);
        if (moved) {
          showError(null);
          const input = $("notation-input");
          if (input && state.to_move !== state.seat) input.value = ""; // our own move went through
        }
        render();
      } else if (message.type === "chatLine" || message.type === "chatRefused") {
        if (window.AcewebChat) AcewebChat.receive(message);
      } else if (message.type === "error") {
        pending = false;
        if (/ still has time$/.test(message.message)) return; // our clock ran ahead of the server's
        showError(message.message);
        if (state && renderer.refused) renderer.refused(page);
        if (message.ply === null && !state) $("game-status").textContent = message.message;
      } else if (renderer.receive && state) {
        renderer.receive(page, message);
      }
    }

    function connect() {
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${window.location.host}${root.dataset.socket}`);
      socket.addEventListener("open", () => { retries = 0; setConnection(null); });
      socket.addEventListener("message", onMessage);
      socket.addEventListener("close", (event) => {
        pending = false;
        if (event.code === 4404) { setConnection(gettext("There is no such game.")); return; }
        const delay = Math.min(10000, 500 * 2 ** retries++);
        setConnection(gettext("Reconnecting…"));
        window.setTimeout(connect, delay);
      });
    }

    // --- Controls -----------------------------------------------------------

    function bindControls() {
      const buttons = $("game-buttons");
      if (buttons) {
        buttons.addEventListener("click", (event) => {
          const command = event.target.closest("[data-command]");
          if (!command) return;
          const type = command.dataset.command;
          if (type === "resign" && !window.confirm(gettext("Resign this game?"))) return;
          showError(null);
          send({ type });
        });
      }
      const form = $("notation");
      if (form) {
        form.addEventListener("submit", (event) => {
          event.preventDefault();
          const input = $("notation-input");
          const text = input.value.trim();
          if (!text || !state) return;
          showError(null);
          send({ type: "act", ply: state.ply, action: text }); // as typed: the engine judges it
        });
      }
      document.addEventListener("keydown", (event) => {
        if (event.key === "Escape") { if (state) renderer.clearSelection(page); showError(null); }
      });
    }

    bindControls();
    if (window.AcewebChat) AcewebChat.attach(send);
    connect();
    window.setInterval(renderClocks, 200);
    window.setInterval(() => state && renderNextRound(), 1000);
    window.setInterval(() => {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}'); // keeps proxies from idling it out
    }, 25000);
    return page;
  }

  window.GamePage = { start, el, notation, formatMs };
})();

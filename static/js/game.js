// The live game page: one websocket (docs/protocol.md), and the page redrawn
// from each sync/update. The server is the authority on everything: the page
// only offers the strings in `legal`, and shows the server's refusals.
(function () {
  "use strict";

  const FILES = "abcdefgh";
  const SUITS = { H: "\u2665", D: "\u2666", S: "\u2660", C: "\u2663" };
  const SUIT_NAMES = { H: "Hearts", D: "Diamonds", S: "Spades", C: "Clubs" };
  const FACE_NAMES = { A: "Ace", K: "King", Q: "Queen", J: "Jack" };
  const POINTS = { A: 40, K: 20, Q: 10, J: 5 }; // R16
  const SIDE_NAMES = { red: "Red", black: "Black" };
  const REASONS = {
    aces: "by aces", points: "on points", resignation: "by resignation",
    time: "on time", abandonment: "by abandonment", aborted: "aborted",
    "no-show": "by forfeit (no-show)", adjudication: "by adjudication",
  };
  const DISCARDS_SHOWN = 6;

  const root = document.getElementById("game");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const pageSeat = root.dataset.seat || null;

  let state = null;          // the last sync/update, whole
  let received = 0;          // performance.now() when it arrived
  let receivedWallClock = 0; // and Date.now(), to compare with the server's turn_started_at
  let selection = { card: null, from: null };
  let pending = false;       // an act is on its way: no double sends
  let flagSentAt = -Infinity; // performance.now() of our last flag: one every few seconds at most
  let sawNoRematchGame = false;
  let socket = null;
  let retries = 0;

  // --- Notation ---------------------------------------------------------

  // "5H e1-e6", "8D b1xc3", "KH @f1", "KH @xf1", "9C burn"
  function parseAction(text) {
    const [card, rest] = text.split(" ");
    let m = /^([a-h][1-8])[-x]([a-h][1-8])$/.exec(rest || "");
    if (m) return { text, card, kind: "move", from: m[1], to: m[2], capture: rest.includes("x") };
    m = /^@(x?)([a-h][1-8])$/.exec(rest || "");
    if (m) return { text, card, kind: "release", to: m[2], capture: m[1] === "x" };
    return { text, card, kind: rest === "burn" ? "burn" : "other" };
  }

  const suitOf = (code) => code.slice(-1);
  const rankOf = (code) => code.slice(0, -1);
  const sideOfCode = (code) => ("HD".includes(suitOf(code)) ? "red" : "black");
  const other = (side) => (side === "red" ? "black" : "red");
  const points = (pawns) => pawns.reduce((sum, p) => sum + (POINTS[rankOf(p)] || 0), 0);

  function pawnName(code) {
    return `${FACE_NAMES[rankOf(code)] || rankOf(code)} of ${SUIT_NAMES[suitOf(code)]}`;
  }

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

  function pawnNode(code) {
    return el("span", { class: `pawn pawn--${sideOfCode(code)}`, "data-pawn": code, title: pawnName(code) }, [
      el("span", { class: "pawn__rank", text: rankOf(code) }),
      el("span", { class: "pawn__suit", text: SUITS[suitOf(code)] }),
    ]);
  }

  // --- Derived facts ----------------------------------------------------

  const isPlayer = () => Boolean(state && state.seat);
  const running = () => state && state.game.status === "running";
  const myTurn = () => isPlayer() && running() && state.to_move === state.seat;
  const legalActions = () => (state ? state.legal.map(parseAction) : []);
  const actionsOf = (card) => legalActions().filter((a) => a.card === card);
  const bottomSide = () => (state && state.seat) || pageSeat || "red";

  function lastAction() {
    if (!state || state.ply === 0) return null;
    const mover = other(state.to_move);
    const pile = state.discards[mover];
    if (!pile.length) return null;
    return parseAction(pile[pile.length - 1]);
  }

  // --- Drawing ----------------------------------------------------------

  function render() {
    if (!state) return;
    root.dataset.state = "live";
    root.dataset.ply = String(state.ply);
    root.dataset.status = state.game.status;
    root.dataset.toMove = state.to_move;
    renderBoard();
    renderCaptured();
    renderPlayers();
    renderHand();
    renderStatus();
    renderButtons();
    renderMoves();
    renderDiscards();
    renderFairness();
    renderClocks();
  }

  function renderBoard() {
    const flipped = bottomSide() === "black";
    const ranks = flipped ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];
    const files = flipped ? FILES.split("").reverse() : FILES.split("");
    const last = lastAction();
    const moves = selection.card ? actionsOf(selection.card).filter((a) => a.kind === "move") : [];
    const froms = new Set(moves.map((a) => a.from));
    const targets = new Map(moves.filter((a) => a.from === selection.from).map((a) => [a.to, a]));
    const board = $("board");
    board.setAttribute("aria-label", flipped ? "Board, rank 1 at the top" : "Board, rank 8 at the top");
    const rows = ranks.map((rank) => {
      const cells = files.map((file) => {
        const square = file + rank;
        const code = state.board[square];
        const dark = (FILES.indexOf(file) + rank) % 2 === 1;
        const classes = ["square", dark ? "square--dark" : "square--light"];
        if (last && (last.from === square || last.to === square)) classes.push("square--last");
        if (froms.has(square)) classes.push("square--from");
        if (square === selection.from) classes.push("square--selected");
        if (targets.has(square)) classes.push(code ? "square--capture" : "square--target");
        const cell = el("div", {
          class: classes.join(" "), role: "gridcell", "data-square": square,
          "aria-label": code ? `${square}: ${pawnName(code)}` : square,
        }, code ? [pawnNode(code)] : []);
        cell.addEventListener("click", () => clickSquare(square));
        return cell;
      });
      return el("div", { class: "board__row", role: "row" }, [el("span", { class: "board__label", text: String(rank) }), ...cells]);
    });
    const fileRow = el("div", { class: "board__row board__row--files", "aria-hidden": "true" },
      [el("span"), ...files.map((f) => el("span", { class: "board__label", text: f }))]);
    board.replaceChildren(...rows, fileRow);
  }

  function renderCaptured() {
    // Each side's captured area sits at its own end (R4): the bottom player's below the board.
    for (const [place, side] of [["top", other(bottomSide())], ["bottom", bottomSide()]]) {
      const area = root.querySelector(`[data-area="${place}"]`);
      const pawns = state.captured[side];
      area.className = `captured game-captured captured--${side}`;
      area.dataset.captured = side;
      const places = [];
      for (let i = 0; i < 8; i++) {
        places.push(el("div", { class: "captured__place" }, pawns[i] ? [pawnNode(pawns[i])] : []));
      }
      area.replaceChildren(
        el("span", { class: "captured__title" }, [
          `${SIDE_NAMES[side]}'s captures `,
          el("strong", { class: "captured__points", "data-points": side, text: `${points(pawns)} pts` }),
        ]),
        el("div", { class: "captured__places" }, places),
      );
    }
  }

  function renderPlayers() {
    const presence = state.game.presence || null;
    for (const side of ["red", "black"]) {
      const bar = root.querySelector(`[data-player="${side}"]`);
      bar.classList.toggle("player--to-move", running() && state.to_move === side);
      const counts = bar.querySelector("[data-counts]");
      counts.textContent = `${state.hand_counts[side]} in hand · ${state.deck_counts[side]} in deck`;
      const botSeat = state.game.bot && state.game.bot.seats[side];
      renderBotTag(bar, botSeat);
      renderRating(bar, side);
      const dot = bar.querySelector("[data-presence]");
      dot.hidden = !presence || Boolean(botSeat); // a bot has no sockets: "offline" would mislead
      if (presence) {
        dot.classList.toggle("player__presence--on", Boolean(presence[side]));
        dot.title = presence[side] ? "online" : "offline";
      }
    }
  }

  // A rated game just ended: the new rating and the change at once, as lichess
  // shows them (game.ratings, docs/protocol.md); until then the page's own rating.
  function renderRating(bar, side) {
    const rating = state.game.ratings && state.game.ratings[side];
    if (!rating) return;
    const change = rating.change;
    const trend = change > 0 ? "up" : change < 0 ? "down" : "same";
    const sign = change > 0 ? "+" : change < 0 ? "\u2212" : "\u00b1";
    bar.querySelector("[data-rating]").replaceChildren(`${rating.after} `, el("span", {
      class: `player__rating-change player__rating-change--${trend}`, "data-rating-change": side,
      text: `${sign}${Math.abs(change)}`, title: `rating before this game: ${rating.before}`,
    }));
  }

  // --- Bots (games/bots.py): a BOT tag, "thinking", or no worker yet ------

  const BOT_LATE_MS = 5000; // games.bots.WORKER_LATE_SECONDS
  let botWait = { ply: null, since: 0, timer: null };

  function renderBotTag(bar, seat) {
    let tag = bar.querySelector("[data-bot]");
    if (seat && !tag) {
      tag = el("span", { class: "player__bot", "data-bot": "", text: "BOT" });
      bar.querySelector(".player__name").after(tag);
    }
    if (tag) {
      tag.hidden = !seat;
      tag.title = seat ? `Computer: ${seat.label}` : "";
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
    const name = state.game[state.to_move];
    if (botWait.ply !== state.ply) {
      window.clearTimeout(botWait.timer);
      botWait = { ply: state.ply, since: performance.now(), timer: window.setTimeout(() => state && renderStatus(), BOT_LATE_MS + 50) };
    }
    const late = !wait.started_at && (wait.worker_late || performance.now() - botWait.since >= BOT_LATE_MS);
    root.dataset.bot = late ? "waiting" : "thinking";
    if (late) return `Waiting for a bot worker: ${name} moves as soon as one runs`;
    return `${name} (computer) is thinking…`;
  }

  function cardNode(card, playable) {
    const classes = ["card", `card--${sideOfCode(card)}`];
    if (card === selection.card) classes.push("card--selected");
    if (myTurn() && !playable) classes.push("card--idle");
    const node = el("button", {
      type: "button", class: classes.join(" "), "data-card": card,
      "aria-pressed": card === selection.card ? "true" : "false",
      title: `${rankOf(card)} of ${SUIT_NAMES[suitOf(card)]}`,
    }, [el("span", { class: "card__rank", text: rankOf(card) }), el("span", { class: "card__suit", text: SUITS[suitOf(card)] })]);
    node.addEventListener("click", () => clickCard(card));
    return node;
  }

  function renderHand() {
    const hand = $("hand");
    if (!hand) return;
    const cards = state.hand || [];
    hand.replaceChildren(...cards.map((card) => cardNode(card, actionsOf(card).length > 0)));
    if (!cards.length) hand.append(el("span", { class: "muted", text: "No cards in hand" }));
    // One-click actions of the selected card: a release (R12) or a burn (R13).
    const extra = selection.card ? actionsOf(selection.card).filter((a) => a.kind === "release" || a.kind === "burn") : [];
    $("hand-actions").replaceChildren(...extra.map((a) => {
      const label = a.kind === "burn" ? `Burn ${a.card}` : `Release ${a.card} to ${a.to}${a.capture ? " (captures)" : ""}`;
      const button = el("button", { type: "button", class: "button", "data-action": a.text, text: label });
      button.addEventListener("click", () => sendAction(a.text));
      return button;
    }));
  }

  function resultText(game) {
    if (game.status === "aborted") return "Game aborted";
    const reason = (REASONS[game.reason] || game.reason || "") +
      (game.adjudication ? ` (${game.adjudication})` : "");
    if (game.reason === "no-show" && !game.winner) return "Both players lost by forfeit (no-show)";
    // Points decide only the rules' endings; after a resignation they would mislead.
    const decided = game.reason === "aces" || game.reason === "points";
    const score = decided && game.score ? ` · points ${game.score.red}–${game.score.black}` : "";
    if (!game.winner) return `Draw ${reason}${score}`;
    const name = game[game.winner];
    return `${SIDE_NAMES[game.winner]} (${name}) wins ${reason}${score}`;
  }

  function renderStatus() {
    const game = state.game;
    const status = $("game-status");
    status.classList.toggle("game-status--over", !running());
    root.dataset.bot = "";
    if (!running()) status.textContent = resultText(game);
    else if (myTurn()) status.textContent = "Your turn";
    else status.textContent = botStatus() || `${SIDE_NAMES[state.to_move]} (${game[state.to_move]}) to move`;
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
      note.replaceChildren(el("a", { href: `/games/${rematch.game_id}/`, text: `Rematch: game ${rematch.game_id} \u2192` }));
    } else {
      sawNoRematchGame = true;
      if (rematch.offered_by && rematch.offered_by !== state.seat) {
        note.hidden = false;
        note.textContent = `${SIDE_NAMES[rematch.offered_by]} offers a rematch`;
      }
    }
  }

  function claimOpen() {
    const at = state.game.claim_win_at;
    return Boolean(at) && Date.now() >= Date.parse(at);
  }

  function renderButtons() {
    $("game-replay").hidden = running(); // everyone, spectators too, once it is over
    const box = $("game-buttons");
    if (!box) return;
    const show = (command, visible, label) => {
      const button = box.querySelector(`[data-command="${command}"]`);
      button.hidden = !visible;
      if (label) button.textContent = label;
      return button;
    };
    const player = isPlayer();
    show("resign", player && running());
    show("abort", player && running() && state.ply < 2 && !state.game.event);  // tournament games: no abort
    show("claim", player && running() && claimOpen());
    const rematch = state.game.rematch || {};
    let label = "Rematch";
    if (rematch.offered_by && rematch.offered_by === state.seat) label = "Rematch offered";
    else if (rematch.offered_by) label = "Accept rematch";
    const button = show("rematch", player && !running() && !rematch.game_id, label);
    button.disabled = label === "Rematch offered";
    const form = $("notation");
    if (form) form.hidden = !(player && running());
  }

  function renderMoves() {
    const red = state.discards.red;
    const black = state.discards.black;
    const rows = [];
    for (let i = 0; i < Math.max(red.length, black.length); i++) {
      rows.push(el("li", { class: "moves__turn" }, [
        el("span", { class: "moves__move moves__move--red", text: red[i] || "" }),
        el("span", { class: "moves__move moves__move--black", text: black[i] || "" }),
      ]));
    }
    const list = $("moves");
    list.replaceChildren(...rows);
    if (!rows.length) list.append(el("li", { class: "moves__none muted", text: "No moves yet" }));
    list.scrollTop = list.scrollHeight;
  }

  function renderDiscards() {
    const piles = ["red", "black"].map((side) => {
      const pile = state.discards[side].slice(-DISCARDS_SHOWN);
      const cards = pile.map((text) => {
        const card = parseAction(text).card;
        return el("span", { class: `card card--small card--${sideOfCode(card)}`, title: text }, [
          el("span", { class: "card__rank", text: rankOf(card) }), el("span", { class: "card__suit", text: SUITS[suitOf(card)] }),
        ]);
      });
      return el("div", { class: "discards__pile", "data-discards": side }, [
        el("span", { class: "discards__title", text: `${SIDE_NAMES[side]} (${state.discards[side].length})` }),
        el("div", { class: "discards__cards" }, cards.length ? cards : [el("span", { class: "muted", text: "none yet" })]),
      ]);
    });
    $("discards").replaceChildren(...piles);
  }

  function renderFairness() {
    const game = state.game;
    const parts = [`${game.clock.time_control}${game.rated ? " · rated" : " · casual"}`];
    parts.push(game.seed ? `seed ${game.seed} (commitment ${game.commitment.slice(0, 12)}…)` : `commitment ${game.commitment.slice(0, 12)}…`);
    $("fairness").textContent = parts.join(" · ");
    $("fairness").title = `SHA-256 commitment to the seed (R19): ${game.commitment}`;
  }

  // --- Clocks: the server's numbers, run down locally --------------------

  function remainingMs(side) {
    const clock = state.game.clock;
    const base = clock[`${side}_ms`];
    if (clock.running !== side || !clock.turn_started_at) return base;
    // Charged since the turn began (server time), measured from the message's arrival.
    const atArrival = Math.max(0, receivedWallClock - Date.parse(clock.turn_started_at)) || 0;
    return base - atArrival - (performance.now() - received);
  }

  function formatMs(ms) {
    ms = Math.max(0, ms);
    const total = Math.floor(ms / 1000);
    const days = Math.floor(total / 86400);
    const hours = Math.floor((total % 86400) / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = String(total % 60).padStart(2, "0");
    if (days) return `${days}d ${hours}h`;
    if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
    if (ms < 10000) return `0:${seconds}.${Math.floor((ms % 1000) / 100)}`;
    return `${minutes}:${seconds}`;
  }

  function renderClocks() {
    if (!state) return;
    const clock = state.game.clock;
    for (const side of ["red", "black"]) {
      const node = root.querySelector(`[data-clock="${side}"]`);
      const ms = remainingMs(side);
      node.textContent = formatMs(ms);
      node.classList.toggle("clock--running", clock.running === side);
      node.classList.toggle("clock--low", ms < 20000 && !clock.days_per_move);
      if (clock.running === side && ms <= 0 && isPlayer() && running() && performance.now() - flagSentAt > 3000) {
        flagSentAt = performance.now(); // the server decides: the ending, or "still has time"
        send({ type: "flag" });
      }
    }
    const claim = $("game-buttons") && $("game-buttons").querySelector('[data-command="claim"]');
    if (claim && claim.hidden === (isPlayer() && running() && claimOpen())) renderButtons();
    renderFirstMove();
  }

  // Real-time clocks start once each side has moved; until then the side to
  // move has a short window (clock.abort_at), or the server aborts the game.
  function renderFirstMove() {
    const note = $("game-first-move");
    const abortAt = running() && state.game.clock.abort_at;
    note.hidden = !abortAt;
    if (!abortAt) return;
    const left = Math.max(0, Math.ceil((Date.parse(abortAt) - Date.now()) / 1000));
    const side = state.to_move;
    note.textContent = myTurn()
      ? `Make your first move within ${left} s, or the game is aborted.`
      : `${SIDE_NAMES[side]} (${state.game[side]}) has ${left} s to make a first move, or the game is aborted.`;
    if (left === 0 && isPlayer() && performance.now() - flagSentAt > 3000) {
      flagSentAt = performance.now(); // the server aborts it, or says there is still time
      send({ type: "flag" });
    }
  }

  // --- Choosing an action -------------------------------------------------

  function clearSelection() {
    selection = { card: null, from: null };
    if (state) { renderBoard(); renderHand(); }
  }

  function clickCard(card) {
    showError(null);
    if (selection.card === card || !myTurn()) { clearSelection(); return; }
    selection = { card, from: null };
    const moves = actionsOf(card).filter((a) => a.kind === "move");
    const froms = new Set(moves.map((a) => a.from));
    if (froms.size === 1) selection.from = [...froms][0]; // only one pawn can go: show its targets
    renderBoard();
    renderHand();
  }

  function clickSquare(square) {
    if (!selection.card) return;
    const moves = actionsOf(selection.card).filter((a) => a.kind === "move");
    const target = moves.find((a) => a.from === selection.from && a.to === square);
    if (target) { sendAction(target.text); return; }
    selection.from = moves.some((a) => a.from === square) ? square : null;
    renderBoard();
  }

  function sendAction(text) {
    if (!state || pending) return;
    showError(null);
    if (send({ type: "act", ply: state.ply, action: text })) pending = true;
  }

  function showError(message) {
    const box = $("game-error");
    box.hidden = !message;
    box.textContent = message || "";
  }

  // --- The socket ---------------------------------------------------------

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError("Not connected: wait for the connection to come back.");
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

  function onMessage(event) {
    const message = JSON.parse(event.data);
    if (message.type === "beat" || message.type === "pong") {
      resyncIfBehind(message);
    } else if (message.type === "sync" || message.type === "update") {
      if (state && message.ply < state.ply) return; // an older state than the one shown
      const moved = !state || state.ply !== message.ply;
      state = message; // replace, never merge
      received = performance.now();
      receivedWallClock = Date.now();
      pending = false;
      if (moved || !myTurn() || (selection.card && !(state.hand || []).includes(selection.card))) {
        selection = { card: null, from: null };
      }
      if (moved) {
        showError(null);
        const input = $("notation-input");
        if (input && state.to_move !== state.seat) input.value = ""; // our own move went through
      }
      render();
    } else if (message.type === "error") {
      pending = false;
      if (/ still has time$/.test(message.message)) return; // our clock ran ahead of the server's
      showError(message.message);
      if (message.ply === null && !state) $("game-status").textContent = message.message;
    }
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}${root.dataset.socket}`);
    socket.addEventListener("open", () => { retries = 0; setConnection(null); });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", (event) => {
      pending = false;
      if (event.code === 4404) { setConnection("There is no such game."); return; }
      const delay = Math.min(10000, 500 * 2 ** retries++);
      setConnection("Reconnecting…");
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
        if (type === "resign" && !window.confirm("Resign this game?")) return;
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
      if (event.key === "Escape") { clearSelection(); showError(null); }
    });
  }

  bindControls();
  connect();
  window.setInterval(renderClocks, 200);
  window.setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}'); // keeps proxies from idling it out
  }, 25000);
})();

// Replay page: step through the positions embedded by the server (games/replays.py).
// Each step holds only public data (a spectator's view), plus both hands once the
// game is over; this script draws the board from it and never asks for anything else.
(function () {
  "use strict";
  const root = document.querySelector("[data-replay]");
  const data = document.getElementById("replay-steps");
  if (!root || !data) return;
  const steps = JSON.parse(data.textContent); // grows while a running game is followed
  const SUITS = { H: "\u2665", D: "\u2666", S: "\u2660", C: "\u2663" };
  const SUIT_NAMES = { H: "Hearts", D: "Diamonds", S: "Spades", C: "Clubs" };
  const RANK_NAMES = { A: "Ace", K: "King", Q: "Queen", J: "Jack" };
  let current = steps.length - 1;

  function pawn(code) {
    // The same markup as templates/games/_pawn.html.
    const rank = code.slice(0, -1), suit = code.slice(-1);
    const el = document.createElement("span");
    el.className = "pawn pawn--" + ("HD".includes(suit) ? "red" : "black");
    el.dataset.pawn = code;
    el.title = RANK_NAMES[rank] + " of " + SUIT_NAMES[suit];
    const r = document.createElement("span"); r.className = "pawn__rank"; r.textContent = rank;
    const s = document.createElement("span"); s.className = "pawn__suit"; s.textContent = SUITS[suit];
    el.append(r, s);
    return el;
  }

  function drawBoard(view) {
    root.querySelectorAll("[data-square]").forEach((cell) => {
      const code = view.board[cell.dataset.square];
      cell.replaceChildren(...(code ? [pawn(code)] : []));
      cell.setAttribute("aria-label", cell.dataset.square + (code ? ": " + pawn(code).title : ""));
    });
    root.querySelectorAll("[data-captured]").forEach((area) => {
      const pawns = view.captured[area.dataset.captured] || [];
      area.querySelectorAll(".captured__place").forEach((place, i) => {
        place.replaceChildren(...(pawns[i] ? [pawn(pawns[i])] : []));
      });
    });
  }

  function drawText(step) {
    const v = step.view;
    const set = (sel, text) => { const el = root.querySelector(sel); if (el) el.textContent = text; };
    set("[data-step-label]", "Step " + step.index + " of " + (steps.length - 1) +
        (step.action ? ": " + (step.seat === "red" ? "Red " : "Black ") + step.action : ": start"));
    set('[data-counts="hand"]', "Red " + v.hand_counts.red + ", Black " + v.hand_counts.black);
    set('[data-counts="deck"]', "Red " + v.deck_counts.red + ", Black " + v.deck_counts.black);
    if (step.hands) {
      set('[data-hand="red"]', step.hands.red.join(" ") || "(none)");
      set('[data-hand="black"]', step.hands.black.join(" ") || "(none)");
    }
    root.querySelectorAll("[data-step]").forEach((b) => {
      const on = Number(b.dataset.step) === step.index;
      b.classList.toggle("is-current", on);
      if (on) { b.setAttribute("aria-current", "step"); } else { b.removeAttribute("aria-current"); }
    });
  }

  function go(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    drawBoard(steps[current].view);
    drawText(steps[current]);
  }

  root.addEventListener("click", (event) => {
    const target = event.target.closest("[data-go], [data-step]");
    if (!target) return;
    if (target.dataset.step !== undefined) { go(Number(target.dataset.step)); return; }
    go({ first: 0, prev: current - 1, next: current + 1, last: steps.length - 1 }[target.dataset.go]);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: steps.length - 1 };
    if (event.key in moves) { event.preventDefault(); go(moves[event.key]); }
  });
  // --- A running game, followed live ---------------------------------------
  // The page holds the positions as of its loading; the game socket
  // (docs/protocol.md) then brings each new ply. Only the public fields of a
  // message are kept, so a step never holds a hand, even when the viewer is one
  // of the players and the socket sends them their own.

  const socketPath = root.dataset.liveSocket;
  const liveNote = root.querySelector("[data-live-note]");
  const moveList = root.querySelector(".replay__list");
  let retries = 0;

  function publicStep(message) {
    const index = message.ply;
    const seat = index % 2 === 1 ? "red" : "black";
    const view = {
      seat: null, ply: index, to_move: message.to_move, board: message.board, captured: message.captured,
      hand: null, hand_counts: message.hand_counts, deck_counts: message.deck_counts,
      discards: message.discards, legal: [], outcome: message.outcome,
    };
    return { index, action: message.discards[seat].slice(-1)[0], seat, view, hands: null };
  }

  function appendMove(step) {
    const button = document.createElement("button");
    button.className = "replay__move";
    button.type = "button";
    button.dataset.step = String(step.index);
    button.textContent = step.action;
    if (step.seat === "red" || !moveList.lastElementChild) {
      const item = document.createElement("li");
      item.value = (step.index + 1) / 2;
      moveList.append(item);
    } else {
      moveList.lastElementChild.append(" ");
    }
    moveList.lastElementChild.append(button);
  }

  function follow(message) {
    if (message.game.status !== "running") {
      // Over: the server now shows both hands and checks the seed (R19).
      location.reload();
      return;
    }
    const last = steps.length - 1;
    if (message.ply <= last) return; // a presence change, or already shown
    if (message.ply > last + 1) {
      location.reload(); // missed plies (e.g. while reconnecting): load them all
      return;
    }
    const atEnd = current === last;
    steps.push(publicStep(message));
    appendMove(steps[steps.length - 1]);
    // Stay on the step being looked at, unless it was the latest (then keep up).
    go(atEnd ? steps.length - 1 : current);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + socketPath);
    socket.addEventListener("open", () => {
      retries = 0;
      if (liveNote) liveNote.textContent = "Live: new moves appear as they are played.";
      root.dataset.live = "on";
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "sync" || message.type === "update") follow(message);
      // Behind the game (docs/protocol.md, "Staying in step"): ask for the state now.
      else if (message.type === "beat" && (message.ply > steps.length - 1 || message.status !== "running")) {
        socket.send('{"type":"sync"}');
      }
    });
    socket.addEventListener("close", (event) => {
      root.dataset.live = "off";
      if (event.code === 4404) return; // no such game
      if (liveNote) liveNote.textContent = "Reconnecting…";
      setTimeout(connect, Math.min(10000, 500 * 2 ** retries++));
    });
  }

  go(current);
  if (socketPath && moveList) connect();
})();

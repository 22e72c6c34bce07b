// Rhombus replay page (templates/games/replay_rhombus.html): step through the
// positions embedded by the server (games/replays.py). Each step holds a
// spectator's view (RH29): the board, the table cards, the discard pile and
// counts; every seat's hand only once the game is over. The board, bars and
// cards use the live page's markup and CSS (static/js/rhombus.js, rhombus.css).
(function () {
  "use strict";
  const root = document.querySelector("[data-replay][data-kind='rhombus']");
  const data = document.getElementById("replay-steps");
  if (!root || !data) return;
  const steps = JSON.parse(data.textContent);
  const SUITS = { H: "\u2665", D: "\u2666", S: "\u2660", C: "\u2663" };
  const SUIT_NAMES = { H: "hearts", D: "diamonds", S: "spades", C: "clubs" };
  const QUIET_LIMIT = 100; // RH27
  let current = steps.length - 1;

  function node(tag, attrs, children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === "text") el.textContent = value; else el.setAttribute(name, value);
    }
    if (children) el.append(...children); // nodes or text
    return el;
  }

  // The same markup as rhombus.js's smallCard.
  function card(code, attrs) {
    const rank = code.slice(0, -1), suit = code.slice(-1);
    return node("span", {
      class: "card card--small card--" + ("HD".includes(suit) ? "red" : "black"),
      title: rank + " of " + SUIT_NAMES[suit], ...attrs,
    }, [node("span", { class: "card__rank", text: rank }), node("span", { class: "card__suit", text: SUITS[suit] })]);
  }

  function cards(box, codes, attr, none) {
    if (!box) return;
    box.replaceChildren(...(codes.length ? codes.map((c) => card(c, { [attr]: c })) : [node("span", { class: "muted", text: none })]));
  }

  // The squares the step's action moved from and to, marked as the live page marks the last action.
  function touched(action) {
    return new Set(action ? (action.match(/[a-e][1-5]/g) || []) : []);
  }

  function drawBoard(step) {
    const last = touched(step.action);
    root.querySelectorAll("[data-square]").forEach((cell) => {
      const square = cell.dataset.square;
      const seat = step.view.board[square];
      cell.querySelectorAll(".rh-piece").forEach((p) => p.remove());
      if (seat) {
        cell.append(node("span", { class: "rh-piece rh-piece--" + seat, "data-piece": seat, title: seat + "'s piece on " + square },
          [node("span", { class: "rh-piece__label", text: seat })]));
      }
      cell.classList.toggle("square--last", last.has(square));
      cell.setAttribute("aria-label", seat ? square + ": " + seat : square);
    });
  }

  function drawSeats(step) {
    const v = step.view;
    for (const [seat, info] of Object.entries(v.seats)) {
      const bar = root.querySelector('[data-player="' + seat + '"]');
      if (!bar) continue;
      cards(bar.querySelector("[data-table]"), info.table, "data-table-card", "no table cards");
      const hand = step.hands ? step.hands[seat] : null;
      const held = hand ? hand.length : info.hand_count;
      const parts = [held + " in hand", info.reserve + " in reserve", info.eliminated + " eliminated"];
      if (info.out) parts.push("out (RH34)");
      bar.querySelector("[data-counts]").textContent = parts.join(" · ");
      bar.querySelector("[data-dealer]").hidden = v.dealer !== seat;
      bar.classList.toggle("rh-player--out", Boolean(info.out));
      bar.classList.toggle("is-to-move", !v.outcome && v.to_move === seat);
      if (hand) cards(bar.querySelector("[data-hand]"), hand, "data-hand-card", "empty hand");
    }
  }

  function drawText(step) {
    const v = step.view;
    const set = (sel, text) => { const el = root.querySelector(sel); if (el) el.textContent = text; };
    set("[data-step-label]", "Step " + step.index + " of " + (steps.length - 1) +
        (step.action ? ": " + step.seat + " " + step.action : ": start"));
    set("[data-stock]", ["Pile " + v.pile_count, "reshuffles " + v.reshuffles,
      "quiet " + v.quiet + "/" + QUIET_LIMIT + " (RH27)", "dealer " + v.dealer].join(" · "));
    cards(root.querySelector("[data-discard-cards]"), v.discard, "data-discard", "none yet");
    root.querySelectorAll("[data-step]").forEach((b) => {
      const on = Number(b.dataset.step) === step.index;
      b.classList.toggle("is-current", on);
      if (on) { b.setAttribute("aria-current", "step"); } else { b.removeAttribute("aria-current"); }
    });
  }

  function go(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[current];
    drawBoard(step);
    drawSeats(step);
    drawText(step);
    root.dataset.current = String(current);
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
  // As on the Ace replay (replay.js): the page holds the positions as of its
  // loading; the spectator socket (?watch=1, docs/protocol.md) then brings each
  // new action. Only the public fields of a frame are kept, never a hand (RH29).

  const socketPath = root.dataset.liveSocket;
  const liveNote = root.querySelector("[data-live-note]");
  const moveList = root.querySelector(".replay__list");
  let retries = 0;

  function publicSeats(seats) {
    const out = {};
    for (const [seat, info] of Object.entries(seats)) {
      out[seat] = {
        table: info.table, hand_count: info.hand ? info.hand.length : info.hand_count,
        reserve: info.reserve, eliminated: info.eliminated, out: info.out,
      };
    }
    return out;
  }

  function publicStep(message) {
    const index = message.ply;
    // An update carries only the actions from ply `actions_from` on (docs/protocol.md).
    const played = (message.actions || [])[index - 1 - (message.actions_from || 0)] || { seat: null, action: null };
    const view = {
      seat: null, variant: message.variant, ply: index, board: message.board, seats: publicSeats(message.seats),
      pile_count: message.pile_count, discard: message.discard, reshuffles: message.reshuffles,
      dealer: message.dealer, to_move: message.to_move, quiet: message.quiet,
      commitment: message.commitment, seed_hex: null, legal: [], outcome: message.outcome,
    };
    return { index, action: played.action, seat: played.seat, view, hands: null };
  }

  function appendMove(step) {
    const item = node("li", { value: String(step.index), class: "rh-move", "data-seat": step.seat }, [
      node("span", { class: "rh-move__seat rh-move__seat--" + step.seat, text: step.seat }), " ",
      node("button", { class: "replay__move", type: "button", "data-step": String(step.index), text: step.action }),
    ]);
    moveList.append(item);
  }

  function follow(message) {
    if (message.game.status !== "running") {
      location.reload(); // over: the server now shows every hand and checks the seed (RH30)
      return;
    }
    const last = steps.length - 1;
    if (message.ply <= last) return; // a presence change, or already shown
    if (message.ply > last + 1) {
      location.reload(); // missed actions (e.g. while reconnecting): load them all
      return;
    }
    const atEnd = current === last;
    steps.push(publicStep(message));
    appendMove(steps[steps.length - 1]);
    go(atEnd ? steps.length - 1 : current); // keep up only if the viewer was at the latest step
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + socketPath);
    socket.addEventListener("open", () => {
      retries = 0;
      if (liveNote) liveNote.textContent = "Live: new actions appear as they are played.";
      root.dataset.live = "on";
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "sync" || message.type === "update") follow(message);
      else if (message.type === "beat" && (message.ply > steps.length - 1 || message.status !== "running")) {
        socket.send('{"type":"sync"}'); // behind the game (docs/protocol.md, "Staying in step")
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

// Replay page: step through the positions embedded by the server (games/replays.py).
// Each step holds only public data (a spectator's view), plus both hands once the
// game is over; this script draws the board from it and never asks for anything else.
(function () {
  "use strict";
  const root = document.querySelector("[data-replay]");
  const data = document.getElementById("replay-steps");
  if (!root || !data) return;
  const steps = JSON.parse(data.textContent);
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
  go(current);
})();

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

  // A pawn's or a card's face, named in words: BLOCK "pawn" (templates/games/_pawn.html)
  // or "card" (a hand's card, templates/games/_small_card.html).
  function face(code, block) {
    const rank = code.slice(0, -1), suit = code.slice(-1);
    const el = document.createElement("span");
    el.className = `${block} ${block}--${"HD".includes(suit) ? "red" : "black"}` + (block === "card" ? " card--small" : "");
    el.dataset[block] = code;
    el.title = window.CardNames.cardName(code); // "Ace of Hearts", in the reader's language
    const r = document.createElement("span"); r.className = `${block}__rank`; r.textContent = rank;
    const s = document.createElement("span"); s.className = `${block}__suit`; s.textContent = SUITS[suit];
    el.append(r, s);
    return el;
  }

  const pawn = (code) => face(code, "pawn");

  function drawBoard(view) {
    root.querySelectorAll("[data-square]").forEach((cell) => {
      const code = view.board[cell.dataset.square];
      cell.replaceChildren(...(code ? [pawn(code)] : []));
      // The name starts with what the square shows, as templates/games/_board.html's.
      const shown = code ? code.slice(0, -1) + SUITS[code.slice(-1)] : "";
      cell.setAttribute("aria-label", code ? interpolate(gettext("%(pawn)s on %(square)s (%(name)s)"),
        { pawn: shown, square: cell.dataset.square, name: window.CardNames.cardName(code) }, true) : cell.dataset.square);
    });
    root.querySelectorAll("[data-captured]").forEach((area) => {
      const pawns = view.captured[area.dataset.captured] || [];
      area.querySelectorAll(".captured__place").forEach((place, i) => {
        place.replaceChildren(...(pawns[i] ? [pawn(pawns[i])] : []));
      });
    });
  }

  function drawText(step, steps) {
    const v = step.view;
    const set = (sel, text) => { const el = root.querySelector(sel); if (el) el.textContent = text; };
    const numbers = { step: step.index, last: steps.length - 1 };
    if (step.action) {
      ReplayPage.sayWithAction(root.querySelector("[data-step-label]"), gettext("Step %(step)s of %(last)s: %(seat)s %(action)s"),
        { ...numbers, seat: step.seat === "red" ? gettext("Red") : gettext("Black") }, step.action);
    } else {
      set("[data-step-label]", interpolate(gettext("Step %(step)s of %(last)s: start"), numbers, true));
    }
    const both = gettext("Red %(red)s, Black %(black)s");
    set('[data-counts="hand"]', interpolate(both, { red: v.hand_counts.red, black: v.hand_counts.black }, true));
    set('[data-counts="deck"]', interpolate(both, { red: v.deck_counts.red, black: v.deck_counts.black }, true));
    if (step.hands) {
      for (const side of ["red", "black"]) {
        const cards = step.hands[side].map((code) => face(code, "card"));
        root.querySelector(`[data-hand="${side}"]`).replaceChildren(...(cards.length ? cards : [gettext("(none)")]));
      }
    }
  }

  // A running game's new ply, from the game socket (docs/protocol.md). Only the
  // public fields of a message are kept, so a step never holds a hand, even when
  // the viewer is one of the players and the socket sends them their own.
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

  function appendMove(step, moveList) {
    const button = document.createElement("button");
    button.className = "replay__move";
    button.type = "button";
    button.dataset.step = String(step.index);
    button.translate = false; // notation, as the rules write it (issue 35)
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

  // Stepping, keys and following the live game: static/js/replay-shared.js.
  ReplayPage.start(root, steps, {
    draw(step, all) { drawBoard(step.view); drawText(step, all); },
    publicStep,
    appendMove,
    liveNote: gettext("Live: new moves appear as they are played."),
  });
})();

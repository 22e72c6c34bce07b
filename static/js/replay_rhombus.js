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
  const QUIET_LIMIT = 100; // RH27

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
      title: window.CardNames.rhombusCardName(code), ...attrs,
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
        cell.append(node("span", { class: "rh-piece rh-piece--" + seat, "data-piece": seat, title: interpolate(gettext("%(seat)s's piece on %(square)s"), { seat: seat, square: square }, true) },
          [node("span", { class: "rh-piece__label", text: seat })]));
      }
      cell.classList.toggle("square--last", last.has(square));
      cell.setAttribute("aria-label", seat ? interpolate(gettext("%(seat)s piece on %(square)s"), { seat: seat, square: square }, true) : square); // what it shows first, as _rhombus_board.html
    });
  }

  function drawSeats(step) {
    const v = step.view;
    for (const [seat, info] of Object.entries(v.seats)) {
      const bar = root.querySelector('[data-player="' + seat + '"]');
      if (!bar) continue;
      cards(bar.querySelector("[data-table]"), info.table, "data-table-card", gettext("no table cards"));
      const hand = step.hands ? step.hands[seat] : null;
      const held = hand ? hand.length : info.hand_count;
      const parts = [interpolate(gettext("%(count)s in hand"), { count: held }, true),
        interpolate(gettext("%(count)s in reserve"), { count: info.reserve }, true),
        interpolate(gettext("%(count)s eliminated"), { count: info.eliminated }, true)];
      if (info.out) parts.push(gettext("out (RH34)"));
      bar.querySelector("[data-counts]").textContent = parts.join(" · ");
      bar.querySelector("[data-dealer]").hidden = v.dealer !== seat;
      bar.classList.toggle("rh-player--out", Boolean(info.out));
      bar.classList.toggle("is-to-move", !v.outcome && v.to_move === seat);
      if (hand) cards(bar.querySelector("[data-hand]"), hand, "data-hand-card", gettext("empty hand"));
    }
  }

  function drawText(step, steps) {
    const v = step.view;
    const set = (sel, text) => { const el = root.querySelector(sel); if (el) el.textContent = text; };
    // A Formation game runs to 2,000 plies: counts grouped as the page's language writes them.
    const count = (n) => n.toLocaleString(document.documentElement.lang);
    const numbers = { step: count(step.index), last: count(steps.length - 1) };
    if (step.action) {
      ReplayPage.sayWithAction(root.querySelector("[data-step-label]"), gettext("Step %(step)s of %(last)s: %(seat)s %(action)s"),
        { ...numbers, seat: step.seat }, step.action);
    } else {
      set("[data-step-label]", interpolate(gettext("Step %(step)s of %(last)s: start"), numbers, true));
    }
    set("[data-stock]", interpolate(gettext("Pile %(pile)s · reshuffles %(reshuffles)s · quiet %(quiet)s/%(limit)s (RH27) · dealer %(dealer)s"),
      { pile: v.pile_count, reshuffles: v.reshuffles, quiet: v.quiet, limit: QUIET_LIMIT, dealer: v.dealer }, true));
    cards(root.querySelector("[data-discard-cards]"), v.discard, "data-discard", gettext("none yet"));
  }

  // A running game's new action, from the spectator socket (?watch=1,
  // docs/protocol.md). Only the public fields of a frame are kept, never a hand (RH29).
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

  function appendMove(step, moveList) {
    const item = node("li", { value: String(step.index), class: "rh-move", "data-seat": step.seat }, [
      node("span", { class: "rh-move__seat rh-move__seat--" + step.seat, text: step.seat }), " ",
      node("button", { class: "replay__move", type: "button", "data-step": String(step.index), translate: "no", text: step.action }),
    ]);
    moveList.append(item);
  }

  // Stepping, keys and following the live game: static/js/replay-shared.js.
  ReplayPage.start(root, steps, {
    draw(step, all) { drawBoard(step); drawSeats(step); drawText(step, all); },
    publicStep,
    appendMove,
    liveNote: gettext("Live: new actions appear as they are played."),
  });
})();

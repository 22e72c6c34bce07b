// The live Rhombus page: the 5×5 board (RH1–RH3), every seat's table cards,
// your own cards, the pile and discard pile, the actions so far, and building
// an action by clicking. The socket, clocks, status and buttons are
// game-shared.js's (GamePage.start).
//
// Building an action (issue 24): the view names the card sets that have a
// legal action (`sets`), not every action (a Formation flush has tens of
// thousands). The player picks cards (one to three, four in Formation); a card
// can be picked while some set holds the chosen cards and it. Once the chosen
// cards are exactly a set, the page asks the server which uses can come next
// (an `options` message, docs/protocol.md) and lights up the pieces and entry
// squares they name; a click on a piece and then its target makes the matching
// use (several uses making one move are offered as buttons), zero, Mystery and
// the whole actions (elim, react, entry, discard) are buttons, Back undoes the
// last use and Clear starts again. When every chosen card is used, the uses
// joined by ", " are sent; the server records the action's canonical text (N1).
(function () {
  "use strict";

  const FILES = "abcde";
  const SUITS = { H: "\u2665", D: "\u2666", S: "\u2660", C: "\u2663" };
  const CORNERS = { a1: "SW", e1: "SE", e5: "NE", a5: "NW" }; // RH3
  const DISCARDS_SHOWN = 6;
  const QUIET_LIMIT = 100; // RH27

  const root = document.getElementById("game");
  if (!root || root.dataset.kind !== "rhombus") return;
  const { el, notation } = window.GamePage;
  const $ = (id) => document.getElementById(id);

  let page = null; // GamePage's handle: state(), myTurn(), sendAction(), ...
  let chosen = []; // the picked places of the viewer's cards: "t0", "h1", ...
  let done = []; // the uses made so far, in order: "QH+7H c2xc5", "KH a1-a3"
  let picked = null; // the square of a piece picked and not yet moved
  let choice = null; // several uses a click pair matched: offered as buttons
  let sent = null; // the text sent and not yet answered

  // --- Cards and notation ----------------------------------------------

  const suitOf = (code) => code.slice(-1);
  const rankOf = (code) => code.slice(0, -1);
  const colourOf = (code) => ("HD".includes(suitOf(code)) ? "red" : "black");
  const cardName = (code) => window.CardNames.rhombusCardName(code); // "7 of spades", in the reader's language
  const cardsKey = (cards) => cards.slice().sort().join(" ");

  // One use of an action (Notation): "QH b1-b4", "QH+7H c2xc5", "9D @a1",
  // "9D+10D @xa1", "10C 0", "8S mystery", "8S mystery QD".
  function parseUse(text) {
    const m = /^(\S+?)(?:\+(\S+))? (.+)$/.exec(text);
    if (!m) return null;
    const [, card, kill, rest] = m;
    const use = { text, card, kill: kill || null, cards: kill ? [card, kill] : [card] };
    let sq = /^([a-e][1-5])([-x])([a-e][1-5])$/.exec(rest);
    if (sq) return { ...use, kind: "move", from: sq[1], to: sq[3], capture: sq[2] === "x" };
    sq = /^@(x?)([a-e][1-5])$/.exec(rest);
    if (sq) return { ...use, kind: "enter", to: sq[2], capture: sq[1] === "x" };
    if (rest === "0") return { ...use, kind: "zero" };
    sq = /^mystery(?: (\S+))?$/.exec(rest);
    if (sq) return { ...use, kind: "mystery", taken: sq[1] || null };
    return null;
  }

  // A whole action, for the last one played's squares.
  function parseAction(text) {
    const words = text.split(" ");
    if (words[0] === "discard") {
      return { text, kind: "discard", cards: text.slice(8).split(", "), uses: [] };
    }
    if (words[0] === "react") return { text, kind: "react", cards: words.slice(1), uses: [] };
    if (words[0] === "elim") {
      const sq = /^([a-e][1-5])x([a-e][1-5])$/.exec(words[4]);
      return { text, kind: "elim", cards: words.slice(1, 4), uses: [{ kind: "move", from: sq[1], to: sq[2], capture: true }] };
    }
    if (words[0] === "entry") {
      return { text, kind: "entry", cards: words.slice(1, 5), uses: [{ kind: "enter", to: words[5].slice(2), capture: true }] };
    }
    const uses = text.split(", ").map(parseUse);
    if (uses.some((u) => !u)) return { text, kind: "other", cards: [], uses: [] };
    return { text, kind: "uses", cards: uses.flatMap((u) => u.cards), uses };
  }

  // --- Derived facts ----------------------------------------------------

  const current = () => page.state();
  const seatsOf = (state) => state.game.seats;

  // The viewer's cards with their places, table first (RH7).
  function myPlaces() {
    const state = current();
    const mine = state.seat && state.seats[state.seat];
    if (!mine) return [];
    return [
      ...mine.table.map((card, i) => ({ key: `t${i}`, card, place: "table" })),
      ...(mine.hand || []).map((card, i) => ({ key: `h${i}`, card, place: "hand" })),
    ];
  }

  function chosenCards() {
    const places = myPlaces();
    return chosen.map((key) => places.find((p) => p.key === key)).filter(Boolean).map((p) => p.card);
  }

  // Whether the multiset `part` lies inside the multiset `whole`.
  function within(part, whole) {
    const left = whole.slice();
    for (const card of part) {
      const i = left.indexOf(card);
      if (i < 0) return false;
      left.splice(i, 1);
    }
    return true;
  }

  // The card sets that have a legal action (the server's `sets`).
  const cardSets = () => current().sets || [];

  // Whether the chosen cards are exactly one of those sets: then options can be asked for.
  function chosenIsASet() {
    const key = cardsKey(chosenCards());
    return chosen.length > 0 && cardSets().some((set) => cardsKey(set) === key);
  }

  // --- Asking the server what can follow (games/steps.py) ---------------

  // One request's key: the ply, the chosen cards and the uses made. An answer
  // whose key is not the page's current one is for an older ply or choice: dropped.
  const requestKey = (ply, cards, uses) => JSON.stringify([ply, cardsKey(cards), uses]);
  const currentKey = () => requestKey(current().ply, chosenCards(), done);

  // The answers of this ply, by request key: Back and a card picked again ask nothing.
  let answers = new Map();
  let asked = null; // the key of the request awaiting its answer
  let askedAt = 0; // performance.now() when it was sent

  function ask() {
    if (!page.myTurn() || !chosenIsASet()) return;
    const key = currentKey();
    if (answers.has(key) || asked === key) return;
    // A one-card set's first answer comes with the view (`firsts`): no question for it.
    const cards = chosenCards();
    const first = cards.length === 1 && !done.length && (current().firsts || {})[cards[0]];
    if (first) {
      answers.set(key, { uses: first.uses.map(parseUse).filter(Boolean), actions: first.actions });
      return;
    }
    asked = key;
    askedAt = performance.now();
    const ok = page.send({ type: "options", ply: current().ply, cards: chosenCards(), done: done.slice() });
    if (!ok) asked = null;
  }

  function receive(_page, message) {
    if (message.type !== "options" || message.ply !== current().ply) return;
    const key = requestKey(message.ply, message.cards, message.done);
    answers.set(key, { uses: message.uses.map(parseUse).filter(Boolean), actions: message.actions });
    if (key !== currentKey()) return; // an older choice's answer: kept, not shown
    asked = null;
    redraw(() => { renderBoard(); renderBuilder(); });
  }

  // The answer for the cards and uses now, or null while none has come.
  const options = () => (chosenIsASet() ? answers.get(currentKey()) || null : null);
  const waiting = () => chosenIsASet() && !options() && asked === currentKey();

  // Every card the uses made so far have taken.
  const usedCards = () => done.map(parseUse).filter(Boolean).flatMap((u) => u.cards);

  // --- The board as the uses made leave it ------------------------------

  function boardAfterUses() {
    const board = { ...current().board };
    for (const use of done.map(parseUse).filter(Boolean)) {
      if (use.kind === "move") {
        board[use.to] = board[use.from];
        delete board[use.from];
      } else if (use.kind === "enter") {
        board[use.to] = CORNERS[use.to]; // a new piece stands on its start square (RH20, RH34)
      }
    }
    return board;
  }

  // Squares to light up from the server's next uses: pieces that can move and
  // entry squares, or once a piece is picked, its targets.
  function highlights() {
    const board = boardAfterUses();
    const froms = new Set();
    const targets = new Map(); // square -> "target", "capture" or "enter"
    const found = options();
    if (found && !choice) {
      for (const use of found.uses) {
        if (picked) {
          if (use.kind === "move" && use.from === picked) targets.set(use.to, use.capture ? "capture" : "target");
        } else if (use.kind === "move") {
          froms.add(use.from);
        } else if (use.kind === "enter") {
          targets.set(use.to, use.capture ? "capture" : "enter");
        }
      }
    }
    return { froms, targets, from: picked, board };
  }

  // --- Drawing ----------------------------------------------------------

  // Every redraw keeps the keyboard's focus (static/js/board-keys.js).
  const redraw = (draw) => window.BoardKeys.keep(root, draw);

  function render() {
    redraw(() => {
      renderBoard();
      renderTables();
      renderHand();
      renderStock();
      renderMoves();
      renderDiscards();
    });
  }

  function lastAction() {
    const actions = current().actions || [];
    return actions.length ? parseAction(actions[actions.length - 1].action) : null;
  }

  function squareClasses(square, file, rank, marks) {
    const classes = ["square", "rh-square"];
    // RH2: dark when file + rank is even; the grey corners count as dark.
    classes.push((file + rank) % 2 === 0 ? "square--dark" : "square--light");
    if (CORNERS[square]) classes.push("rh-square--start", `rh-square--start-${CORNERS[square]}`);
    if (marks.last.has(square)) classes.push("square--last");
    if (marks.froms.has(square)) classes.push("square--from");
    if (square === marks.from) classes.push("square--selected");
    if (marks.targets.has(square)) classes.push(`square--${marks.targets.get(square)}`);
    return classes.join(" ");
  }

  function pieceNode(seat, square) {
    return el("span", { class: `rh-piece rh-piece--${seat}`, "data-piece": seat, title: interpolate(gettext("%(seat)s's piece on %(square)s"), { seat: seat, square: square }, true) },
      [el("span", { class: "rh-piece__label", text: seat })]);
  }

  // What a click on a lit square does, said in its name.
  const LIT_NAMES = () => ({ target: gettext("move here"), capture: gettext("capture here"), enter: gettext("bring a piece in here") });

  // A square's name starts with what it shows (a name must contain the visible
  // text): the piece's seat, then the square and what a click does there.
  function squareLabel(square, seat, marks) {
    const name = seat ? interpolate(gettext("%(seat)s piece on %(square)s"), { seat: seat, square: square }, true) : square;
    let lit = null;
    if (marks.froms.has(square)) lit = gettext("can move");
    if (square === marks.from) lit = gettext("chosen");
    if (marks.targets.has(square)) lit = LIT_NAMES()[marks.targets.get(square)];
    return lit ? interpolate(gettext("%(square)s, %(action)s"), { square: name, action: lit }, true) : name;
  }

  // Five rows (role="row") of five squares, as templates/games/_rhombus_board.html;
  // the coordinates are drawn by CSS from data-coord, no part of a square's text.
  function renderBoard() {
    const building = page.myTurn() && chosen.length > 0 && !sent;
    const marks = building ? highlights() : { froms: new Set(), targets: new Map(), from: null, board: current().board };
    const last = lastAction();
    marks.last = new Set(last ? last.uses.flatMap((u) => [u.from, u.to]).filter(Boolean) : []);
    const rows = [];
    for (let rank = 5; rank >= 1; rank--) {
      const cells = [];
      for (let f = 0; f < 5; f++) {
        const square = FILES[f] + rank;
        const seat = marks.board[square];
        const labels = [];
        if (f === 0) labels.push(el("span", { class: "rh-coord rh-coord--rank", "aria-hidden": "true", "data-coord": String(rank) }));
        if (rank === 1) labels.push(el("span", { class: "rh-coord rh-coord--file", "aria-hidden": "true", "data-coord": FILES[f] }));
        const cell = el("div", {
          class: squareClasses(square, f + 1, rank, marks), role: "gridcell", "data-square": square,
          "aria-label": squareLabel(square, seat, marks), "aria-selected": square === marks.from ? "true" : null,
        }, [...labels, ...(seat ? [pieceNode(seat, square)] : [])]);
        cell.addEventListener("click", () => clickSquare(square));
        cells.push(cell);
      }
      rows.push(el("div", { class: "rh-row", role: "row" }, cells));
    }
    $("board").replaceChildren(...rows);
  }

  function smallCard(code, attrs) {
    return el("span", { class: `card card--small card--${colourOf(code)}`, title: cardName(code), ...attrs }, [
      el("span", { class: "card__rank", text: rankOf(code) }), el("span", { class: "card__suit", text: SUITS[suitOf(code)] }),
    ]);
  }

  // Every seat's table cards, face up by its bar (RH7, RH29), and the dealer.
  function renderTables() {
    const state = current();
    for (const seat of seatsOf(state)) {
      const box = root.querySelector(`[data-table="${seat}"]`);
      if (!box) continue;
      const cards = state.seats[seat].table.map((code) => smallCard(code, { "data-table-card": code }));
      box.replaceChildren(...(cards.length ? cards : [el("span", { class: "muted", text: gettext("no table cards") })]));
      const dealer = root.querySelector(`[data-player="${seat}"] [data-dealer]`);
      dealer.hidden = state.dealer !== seat;
      const bar = root.querySelector(`[data-player="${seat}"]`);
      bar.classList.toggle("rh-player--out", Boolean(state.seats[seat].out));
    }
  }

  function counts(seat) {
    const info = current().seats[seat];
    const held = info.hand ? info.hand.length : info.hand_count;
    const parts = [interpolate(gettext("%(count)s in hand"), { count: held }, true),
      interpolate(gettext("%(count)s in reserve"), { count: info.reserve }, true),
      interpolate(gettext("%(count)s eliminated"), { count: info.eliminated }, true)];
    if (info.out) parts.push(gettext("out (RH34)"));
    return parts.join(" · ");
  }

  function cardButton(place, playable) {
    const selected = chosen.includes(place.key);
    const classes = ["card", `card--${colourOf(place.card)}`, `rh-card--${place.place}`];
    if (selected) classes.push("card--selected");
    const idle = page.myTurn() && !playable;
    if (idle) classes.push("card--idle");
    const node = el("button", {
      type: "button", class: classes.join(" "), "data-card": place.card, "data-place": place.place,
      "data-key": place.key, "aria-pressed": selected ? "true" : "false",
      "aria-disabled": idle ? "true" : null, // no legal action uses it with the chosen cards: faded, and said so
      title: interpolate(place.place === "table" ? gettext("%(card)s (table card, seen by all)") : gettext("%(card)s (hand card, only you see it)"),
        { card: cardName(place.card) }, true),
    }, [
      el("span", { class: "card__rank", text: rankOf(place.card) }),
      el("span", { class: "card__suit", text: SUITS[suitOf(place.card)] }),
      el("span", { class: "rh-card__place", text: place.place === "table" ? pgettext("card place", "table") : pgettext("card place", "hand") }),
    ]);
    node.addEventListener("click", () => clickCard(place.key));
    return node;
  }

  // A card can be added when some card set with a legal action holds the chosen cards and it too.
  function playable(place) {
    if (chosen.includes(place.key)) return true;
    const want = [...chosenCards(), place.card];
    return cardSets().some((set) => within(want, set));
  }

  function renderHand() {
    const hand = $("hand");
    if (!hand) return;
    const places = myPlaces();
    hand.replaceChildren(...places.map((p) => cardButton(p, playable(p))));
    renderBuilder();
  }

  function button(text, attrs, onClick) {
    const node = el("button", { type: "button", class: "button rh-option", text, ...attrs });
    node.addEventListener("click", onClick);
    return node;
  }

  function builderText() {
    const found = options();
    if (!chosenIsASet()) return gettext("%(cards)s: no legal action uses exactly these cards. Pick more, or fewer.");
    if (!found && !waiting()) return gettext("%(cards)s: the server gave no answer (see above). Pick the cards again, or Clear.");
    if (!found) return gettext("%(cards)s: asking the server which uses can follow…");
    if (choice) return gettext("%(cards)s: more than one use makes that move. Choose one:");
    if (picked) return gettext("%(cards)s: now click the target square.");
    if (!found.uses.length && !found.actions.length) return gettext("%(cards)s: nothing can follow these uses. Go back, or Clear.");
    if (found.uses.some((u) => u.kind === "move" || u.kind === "enter")) {
      return gettext("%(cards)s: click a piece, then its target (or a start square for a new piece), or choose below.");
    }
    return gettext("%(cards)s: choose the action.");
  }

  // The buttons: a choice between uses making one move; else the uses off the
  // board (zero, Mystery), the picked piece's moves, and the whole actions.
  function builderButtons() {
    const found = options();
    if (!found) return [];
    if (choice) return choice.map((text) => button(text, { "data-use": text }, () => makeUse(text)));
    const uses = found.uses.filter((u) => u.kind === "zero" || u.kind === "mystery" || (picked && u.kind === "move" && u.from === picked));
    return [
      ...uses.map((u) => button(u.text, { "data-use": u.text }, () => makeUse(u.text))),
      ...found.actions.map((text) => button(text, { "data-action": text }, () => send(text))),
    ];
  }

  function renderBuilder() {
    const prompt = $("builder-prompt");
    const box = $("hand-actions");
    box.removeAttribute("aria-busy");
    if (sent) {
      prompt.textContent = interpolate(gettext("Sent: %(action)s"), { action: sent }, true);
      box.replaceChildren();
      return;
    }
    if (!page.myTurn()) {
      prompt.textContent = page.isPlayer() && page.running() ? gettext("Wait for your turn.") : "";
      box.replaceChildren();
      return;
    }
    if (!chosen.length) {
      prompt.textContent = current().variant === "formation"
        ? gettext("Your turn: pick one to four cards for your action (RH10).")
        : gettext("Your turn: pick one to three cards for your action (RH10).");
      box.replaceChildren();
      return;
    }
    if (waiting()) box.setAttribute("aria-busy", "true");
    prompt.textContent = interpolate(builderText(), { cards: chosenCards().join(" ") }, true);
    const buttons = builderButtons();
    const parts = [];
    if (done.length) {
      parts.push(el("span", { class: "rh-options__title", "data-done": done.join(", "),
        text: interpolate(gettext("Uses made: %(uses)s"), { uses: done.join(", ") }, true) }));
    }
    if (buttons.length) {
      parts.push(el("span", { class: "rh-options__title", text: choice ? gettext("The uses that make this move:")
        : gettext("Or choose a use or a whole action:") }));
    }
    const back = button(gettext("Back"), { class: "button rh-back", "data-back": "", disabled: !done.length && !picked && !choice }, goBack);
    const clear = el("button", { type: "button", class: "button rh-clear", "data-clear": "", text: gettext("Clear") });
    clear.addEventListener("click", () => clearSelection());
    box.replaceChildren(...parts, ...buttons, back, clear);
  }

  function renderStock() {
    const state = current();
    $("stock").textContent = interpolate(gettext("Pile %(pile)s · reshuffles %(reshuffles)s · quiet %(quiet)s/%(limit)s (RH27) · dealer %(dealer)s"),
      { pile: state.pile_count, reshuffles: state.reshuffles, quiet: state.quiet, limit: QUIET_LIMIT, dealer: state.dealer }, true);
  }

  function renderMoves() {
    const state = current();
    const rows = (state.actions || []).map((entry, i) => el("li", { class: "moves__turn rh-move", "data-seat": entry.seat, "data-ply": String(i + 1) }, [
      el("span", { class: `rh-move__seat rh-move__seat--${entry.seat}`, text: entry.seat }),
      notation(entry.action, "rh-move__action"),
    ]));
    const list = $("moves");
    list.replaceChildren(...rows);
    if (!rows.length) list.append(el("li", { class: "moves__none muted", text: gettext("No actions yet") }));
    list.scrollTop = list.scrollHeight;
  }

  // The discard pile, top card first (RH24), as far as DISCARDS_SHOWN.
  function renderDiscards() {
    const pile = current().discard;
    const cards = pile.slice(0, DISCARDS_SHOWN).map((code) => smallCard(code, { "data-discard": code }));
    $("discards").replaceChildren(el("div", { class: "discards__pile", "data-discards": "pile" }, [
      el("span", { class: "discards__title", text: interpolate(gettext("Discard pile (%(count)s), top first"), { count: pile.length }, true) }),
      el("div", { class: "discards__cards" }, cards.length ? cards : [el("span", { class: "muted", text: gettext("none yet") })]),
    ]));
  }

  // --- Building an action ---------------------------------------------------

  function send(text) {
    sent = page.sendAction(text) ? text : null;
    redraw(() => { renderBoard(); renderBuilder(); });
  }

  // A refusal (its message is shown above): an action the player may change, or
  // an options request the server would not answer (the page stops waiting).
  function refused() {
    sent = null;
    asked = null;
    redraw(() => { renderBoard(); renderBuilder(); });
  }

  function clearSelection() {
    chosen = [];
    resetUses();
    sent = null;
    if (current()) redraw(() => { renderBoard(); renderHand(); });
  }

  function resetUses() {
    done = [];
    picked = null;
    choice = null;
  }

  // A use made: the action is sent once every chosen card is used, else the next uses are asked for.
  function makeUse(text) {
    done = [...done, text];
    picked = null;
    choice = null;
    if (usedCards().length >= chosen.length) {
      send(done.join(", "));
      return;
    }
    ask();
    redraw(() => { renderBoard(); renderBuilder(); });
  }

  // Back: put down a picked piece or drop a choice, else undo the last use.
  function goBack() {
    if (choice || picked) { choice = null; picked = null; }
    else done = done.slice(0, -1);
    sent = null;
    ask();
    redraw(() => { renderBoard(); renderBuilder(); });
  }

  function clickCard(key) {
    page.showError(null);
    sent = null;
    if (!page.myTurn()) { clearSelection(); return; }
    chosen = chosen.includes(key) ? chosen.filter((k) => k !== key) : [...chosen, key];
    resetUses();
    ask();
    redraw(() => { renderBoard(); renderHand(); });
  }

  // The uses a click on `square` makes: the picked piece's moves there, or
  // with no piece picked, the new pieces brought in there.
  function usesAt(square) {
    const found = options();
    if (!found) return [];
    return found.uses.filter((u) => (picked ? u.kind === "move" && u.from === picked && u.to === square
      : u.kind === "enter" && u.to === square));
  }

  function clickSquare(square) {
    if (!page.myTurn() || !options() || sent) return;
    const marks = highlights();
    choice = null;
    if (picked && square === picked) {
      picked = null; // the picked piece again: put it down
    } else if (marks.targets.has(square)) {
      const uses = [...new Set(usesAt(square).map((u) => u.text))];
      if (uses.length === 1) { makeUse(uses[0]); return; }
      choice = uses; // two kill cards, or two cards reaching one square: the player chooses
    } else if (marks.froms.has(square) || (picked && highlightsFor(null).froms.has(square))) {
      picked = square;
    } else {
      picked = null;
    }
    redraw(() => { renderBoard(); renderBuilder(); });
  }

  function highlightsFor(from) {
    const keep = picked;
    picked = from;
    const marks = highlights();
    picked = keep;
    return marks;
  }

  // A new state: the choice survives only while it is still our turn with those cards.
  function newState(_page, moved) {
    sent = null;
    if (moved) { answers = new Map(); asked = null; }
    if (moved || !page.myTurn()) { chosen = []; resetUses(); return; }
    const keys = new Set(myPlaces().map((p) => p.key));
    if (chosen.some((key) => !keys.has(key))) { chosen = []; resetUses(); return; }
    if (asked && performance.now() - askedAt > 3000) { asked = null; ask(); } // lost with a dropped socket: asked again
  }

  window.BoardKeys.attach($("board"));
  page = window.GamePage.start({
    seatLabel: (seat) => seat,
    fairnessRule: "RH30",
    counts,
    render,
    newState,
    clearSelection,
    refused,
    receive,
  });
})();

// The live Rhombus page: the 5×5 board (RH1–RH3), every seat's table cards,
// your own cards, the pile and discard pile, the actions so far, and building
// an action by clicking. The socket, clocks, status and buttons are
// game-shared.js's (GamePage.start).
//
// Building an action: the player picks the cards (one to three, four in
// Formation); the legal texts that use exactly those cards remain. Each
// click on a piece and its target, or on a start square for a new piece,
// keeps the texts one of whose uses it matches, in any order of the uses
// (RH11, N1). When one text is left and every move of it has been clicked,
// it is sent; until then the remaining texts are offered as buttons, so any
// legal action can always be played.
(function () {
  "use strict";

  const FILES = "abcde";
  const SUITS = { H: "\u2665", D: "\u2666", S: "\u2660", C: "\u2663" };
  const CORNERS = { a1: "SW", e1: "SE", e5: "NE", a5: "NW" }; // RH3
  const DISCARDS_SHOWN = 6;
  const QUIET_LIMIT = 100; // RH27

  const root = document.getElementById("game");
  if (!root || root.dataset.kind !== "rhombus") return;
  const { el } = window.GamePage;
  const $ = (id) => document.getElementById(id);

  let page = null; // GamePage's handle: state(), myTurn(), sendAction(), ...
  let chosen = []; // the picked places of the viewer's cards: "t0", "h1", ...
  let clicks = []; // the squares clicked since the cards were picked
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
    const use = { card, kill: kill || null, cards: kill ? [card, kill] : [card] };
    let sq = /^([a-e][1-5])([-x])([a-e][1-5])$/.exec(rest);
    if (sq) return { ...use, kind: "move", from: sq[1], to: sq[3], capture: sq[2] === "x" };
    sq = /^@(x?)([a-e][1-5])$/.exec(rest);
    if (sq) return { ...use, kind: "enter", to: sq[2], capture: sq[1] === "x" };
    if (rest === "0") return { ...use, kind: "zero" };
    sq = /^mystery(?: (\S+))?$/.exec(rest);
    if (sq) return { ...use, kind: "mystery", taken: sq[1] || null };
    return null;
  }

  // A whole action: its cards and its uses. Only moves and new pieces are
  // clicked on the board; zero, Mystery, reactivation and discards are buttons.
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

  const boardUses = (action) => action.uses.filter((u) => u.kind === "move" || u.kind === "enter");

  // --- Derived facts ----------------------------------------------------

  const current = () => page.state();
  const seatsOf = (state) => state.game.seats;
  // Parsed once per state: a Formation turn can list two thousand texts.
  let parsedFor = null;
  let parsedLegal = [];
  function legalActions() {
    if (parsedFor !== current()) {
      parsedFor = current();
      parsedLegal = parsedFor.legal.map(parseAction);
    }
    return parsedLegal;
  }

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

  // The legal actions that use exactly the chosen cards.
  function candidates() {
    if (!chosen.length) return [];
    const key = cardsKey(chosenCards());
    return legalActions().filter((a) => cardsKey(a.cards) === key);
  }

  // --- Matching clicks to uses (RH11: uses in any order) ---------------

  // The board as the clicks so far leave it, the clicked steps, and a piece
  // picked but not yet moved.
  function replayClicks() {
    const board = { ...current().board };
    const steps = [];
    let from = null;
    for (const square of clicks) {
      if (from) {
        steps.push({ kind: "move", from, to: square });
        board[square] = board[from];
        delete board[from];
        from = null;
      } else if (board[square] && ownPiece(board[square])) {
        from = square;
      } else {
        steps.push({ kind: "enter", to: square });
        board[square] = CORNERS[square];
      }
    }
    return { board, steps, from };
  }

  // A piece the viewer may move: their own, or the partner's once out (RH34).
  function ownPiece(seat) {
    const state = current();
    if (seat === state.seat) return true;
    const me = state.seats[state.seat];
    const side = state.game.sides.find((s) => s.includes(state.seat));
    return Boolean(me && me.out && side.includes(seat));
  }

  // A piece of the viewer's side: never a target (RH12, RH33).
  function friendlyPiece(seat) {
    const state = current();
    return state.game.sides.some((side) => side.includes(seat) && side.includes(state.seat));
  }

  const sameStep = (step, use) => step.kind === use.kind && step.to === use.to && (step.kind === "enter" || step.from === use.from);

  // Every way the steps match distinct board uses of the action, in any of
  // its alike-piece variants: for each, the uses still to click. Empty when
  // the steps do not fit the action.
  function remainders(action, steps) {
    const found = [];
    const walk = (i, left) => {
      if (i === steps.length) { found.push(left); return; }
      left.forEach((use, j) => {
        if (sameStep(steps[i], use)) walk(i + 1, left.filter((_, k) => k !== j));
      });
    };
    for (const uses of variants(action)) walk(0, uses);
    return found;
  }

  function permutations(items) {
    if (items.length <= 1) return [items];
    return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
  }

  // N1: an action is what it leaves behind, so which of two alike pieces made
  // which move does not matter. The listed text names one assignment; these
  // are the others: the pieces that stood on the board before the action
  // (not ones an earlier use brought there) trade their moves among pieces
  // of the same seat. Each leaves the same board, and the listed text is sent.
  function variants(action) {
    const uses = boardUses(action);
    const start = current().board;
    const reached = new Set();
    const free = [];
    uses.forEach((use, i) => {
      if (use.kind === "move" && start[use.from] && !reached.has(use.from)) free.push(i);
      reached.add(use.to);
    });
    const froms = free.map((i) => uses[i].from);
    const found = new Map();
    for (const order of permutations(froms)) {
      if (order.some((sq, k) => start[sq] !== start[froms[k]])) continue;
      const variant = uses.slice();
      free.forEach((i, k) => { variant[i] = { ...uses[i], from: order[k] }; });
      if (variant.some((u) => u.kind === "move" && u.from === u.to)) continue;
      found.set(variant.map((u) => `${u.from}${u.to}`).join(" "), variant);
    }
    return [...found.values()];
  }

  // The candidates the clicks fit, each with what is left to click.
  function fitting() {
    const { steps, from } = replayClicks();
    const fits = [];
    for (const action of candidates()) {
      let rests = remainders(action, steps);
      if (from) rests = rests.filter((left) => left.some((u) => u.kind === "move" && u.from === from));
      if (rests.length) fits.push({ action, rests, done: !from && rests.some((left) => !left.length) });
    }
    return fits;
  }

  // Squares to light up: pieces that can go next, or the picked piece's targets.
  function highlights(fits) {
    const { board, from } = replayClicks();
    const froms = new Set();
    const targets = new Map(); // square -> "target" or "capture"
    for (const fit of fits) {
      for (const left of fit.rests) {
        for (const use of left) {
          if (from) {
            const blocked = board[use.to] && friendlyPiece(board[use.to]); // never onto a friendly piece (RH12)
            if (use.kind === "move" && use.from === from && !blocked) targets.set(use.to, use.capture ? "capture" : "target");
          } else if (use.kind === "move" && board[use.from] && ownPiece(board[use.from])) {
            froms.add(use.from);
          } else if (use.kind === "enter" && !(board[use.to] && ownPiece(board[use.to]))) {
            targets.set(use.to, use.capture ? "capture" : "enter");
          }
        }
      }
    }
    return { froms, targets, from, board };
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
    const building = page.myTurn() && chosen.length > 0;
    const fits = building ? fitting() : [];
    const marks = building ? highlights(fits) : { froms: new Set(), targets: new Map(), from: null, board: current().board };
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

  // A card can be added when some legal action uses the chosen cards and it too.
  function playable(place) {
    if (chosen.includes(place.key)) return true;
    const want = [...chosenCards(), place.card];
    return legalActions().some((action) => within(want, action.cards));
  }

  function renderHand() {
    const hand = $("hand");
    if (!hand) return;
    const places = myPlaces();
    hand.replaceChildren(...places.map((p) => cardButton(p, playable(p))));
    renderBuilder();
  }

  function optionLabel(action) {
    return action.text;
  }

  function renderBuilder() {
    const prompt = $("builder-prompt");
    const options = $("hand-actions");
    if (sent) {
      prompt.textContent = interpolate(gettext("Sent: %(action)s"), { action: sent }, true);
      options.replaceChildren();
      return;
    }
    if (!page.myTurn()) {
      prompt.textContent = page.isPlayer() && page.running() ? gettext("Wait for your turn.") : "";
      options.replaceChildren();
      return;
    }
    if (!chosen.length) {
      prompt.textContent = current().variant === "formation"
        ? gettext("Your turn: pick one to four cards for your action (RH10).")
        : gettext("Your turn: pick one to three cards for your action (RH10).");
      options.replaceChildren();
      return;
    }
    const fits = fitting();
    const names = chosenCards().join(" ");
    const clickable = fits.some((fit) => fit.rests.some((left) => left.length));
    let text;
    if (!candidates().length) text = gettext("%(cards)s: no legal action uses exactly these cards. Pick more, or fewer.");
    else if (!fits.length) text = gettext("%(cards)s: those clicks fit no legal action. Start again with Clear.");
    else if (replayClicks().from) text = gettext("%(cards)s: now click the target square.");
    else if (clickable) text = gettext("%(cards)s: click a piece, then its target (or a start square for a new piece), or choose below.");
    else text = gettext("%(cards)s: choose the action.");
    prompt.textContent = interpolate(text, { cards: names }, true);
    const buttons = fits.map((fit) => {
      const button = el("button", { type: "button", class: "button rh-option", "data-action": fit.action.text, text: optionLabel(fit.action) });
      button.addEventListener("click", () => send(fit.action.text));
      return button;
    });
    const clear = el("button", { type: "button", class: "button rh-clear", "data-clear": "", text: gettext("Clear") });
    clear.addEventListener("click", () => clearSelection());
    // The texts name one of the equal ways to play each action (N1), maybe not the clicked one.
    const title = el("span", { class: "rh-options__title", text: clicks.length
      ? interpolate(ngettext("%(count)s legal action fits your clicks, as the rules write them (N1):",
        "%(count)s legal actions fit your clicks, as the rules write them (N1):", buttons.length), { count: buttons.length }, true)
      : interpolate(ngettext("%(count)s legal action uses these cards:", "%(count)s legal actions use these cards:", buttons.length),
        { count: buttons.length }, true) });
    options.replaceChildren(...(buttons.length ? [title] : []), ...buttons, clear);
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
      el("span", { class: "rh-move__action", text: entry.action }),
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
    redraw(renderBuilder);
  }

  // A refusal (its message is shown above): the player may change the action.
  function refused() {
    sent = null;
    redraw(renderBuilder);
  }

  function clearSelection() {
    chosen = [];
    clicks = [];
    sent = null;
    if (current()) redraw(() => { renderBoard(); renderHand(); });
  }

  function clickCard(key) {
    page.showError(null);
    sent = null;
    if (!page.myTurn()) { clearSelection(); return; }
    chosen = chosen.includes(key) ? chosen.filter((k) => k !== key) : [...chosen, key];
    clicks = [];
    redraw(() => { renderBoard(); renderHand(); });
  }

  function clickSquare(square) {
    if (!page.myTurn() || !chosen.length || sent) return;
    const marks = highlights(fitting());
    if (marks.from && square === marks.from) {
      clicks = clicks.slice(0, -1); // the picked piece again: put it down
    } else if (marks.from && marks.targets.has(square)) {
      clicks = [...clicks, square];
    } else if (!marks.from && (marks.froms.has(square) || marks.targets.has(square))) {
      clicks = [...clicks, square];
    } else if (marks.from) {
      clicks = clicks.slice(0, -1); // another square: drop the picked piece, and take this one if it can go
      if (highlights(fitting()).froms.has(square)) clicks = [...clicks, square];
    } else {
      return;
    }
    const fits = fitting();
    if (fits.length === 1 && fits[0].done) {
      send(fits[0].action.text);
      redraw(renderBoard);
      return;
    }
    redraw(() => { renderBoard(); renderBuilder(); });
  }

  // A new state: the choice survives only while it is still our turn with those cards.
  function newState(_page, moved) {
    sent = null;
    if (moved || !page.myTurn()) { chosen = []; clicks = []; return; }
    const keys = new Set(myPlaces().map((p) => p.key));
    if (chosen.some((key) => !keys.has(key))) { chosen = []; clicks = []; }
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
  });
})();

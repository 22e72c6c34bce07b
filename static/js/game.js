// The live Ace in the Hole page: its board, captured areas, hand, moves and
// discard piles, and choosing an action by card, pawn, target. The socket,
// clocks, status and buttons are game-shared.js's (GamePage.start).
(function () {
  "use strict";

  const FILES = "abcdefgh";
  const SUITS = { H: "\u2665", D: "\u2666", S: "\u2660", C: "\u2663" };
  const POINTS = { A: 40, K: 20, Q: 10, J: 5 }; // R16
  const SIDE_NAMES = { red: gettext("Red"), black: gettext("Black") };
  const DISCARDS_SHOWN = 6;

  const root = document.getElementById("game");
  if (!root || root.dataset.kind === "rhombus") return;
  const { el, notation } = window.GamePage;
  const $ = (id) => document.getElementById(id);
  const pageSeat = root.dataset.seat || null;

  let page = null;          // GamePage's handle: state(), myTurn(), sendAction(), ...
  let selection = { card: null, from: null };

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

  const pawnName = (code) => window.CardNames.cardName(code); // "Jack of Clubs", in the reader's language

  const pawnText = (code) => rankOf(code) + SUITS[suitOf(code)]; // what a pawn shows: "J♣"

  // A square's name starts with what it shows (a name must contain the
  // visible text), then the square, the pawn's name, and what a click does.
  function squareLabel(square, code, lit) {
    const name = code ? interpolate(gettext("%(pawn)s on %(square)s (%(name)s)"),
      { pawn: pawnText(code), square: square, name: pawnName(code) }, true) : square;
    return lit ? interpolate(gettext("%(square)s, %(action)s"), { square: name, action: lit }, true) : name;
  }

  function pawnNode(code) {
    return el("span", { class: `pawn pawn--${sideOfCode(code)}`, "data-pawn": code, title: pawnName(code) }, [
      el("span", { class: "pawn__rank", text: rankOf(code) }),
      el("span", { class: "pawn__suit", text: SUITS[suitOf(code)] }),
    ]);
  }

  // --- Derived facts ----------------------------------------------------

  const current = () => page.state();
  const legalActions = () => (current() ? current().legal.map(parseAction) : []);
  const actionsOf = (card) => legalActions().filter((a) => a.card === card);
  const bottomSide = () => (current() && current().seat) || pageSeat || "red";

  function lastAction() {
    const state = current();
    if (!state || state.ply === 0) return null;
    const mover = other(state.to_move);
    const pile = state.discards[mover];
    if (!pile.length) return null;
    return parseAction(pile[pile.length - 1]);
  }

  // --- Drawing ----------------------------------------------------------

  // Every redraw keeps the keyboard's focus (static/js/board-keys.js).
  const redraw = (draw) => window.BoardKeys.keep(root, draw);

  function render() {
    redraw(() => {
      renderBoard();
      renderCaptured();
      renderHand();
      renderMoves();
      renderDiscards();
    });
  }

  function renderBoard() {
    const state = current();
    const flipped = bottomSide() === "black";
    const ranks = flipped ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];
    const files = flipped ? FILES.split("").reverse() : FILES.split("");
    const last = lastAction();
    const moves = selection.card ? actionsOf(selection.card).filter((a) => a.kind === "move") : [];
    const froms = new Set(moves.map((a) => a.from));
    const targets = new Map(moves.filter((a) => a.from === selection.from).map((a) => [a.to, a]));
    const board = $("board");
    board.setAttribute("aria-label", flipped ? gettext("Board, rank 1 at the top") : gettext("Board, rank 8 at the top"));
    const rows = ranks.map((rank) => {
      const cells = files.map((file) => {
        const square = file + rank;
        const code = state.board[square];
        const dark = (FILES.indexOf(file) + rank) % 2 === 1;
        const classes = ["square", dark ? "square--dark" : "square--light"];
        let lit = null;
        if (last && (last.from === square || last.to === square)) classes.push("square--last");
        if (froms.has(square)) { classes.push("square--from"); lit = gettext("can move"); }
        if (square === selection.from) { classes.push("square--selected"); lit = gettext("chosen"); }
        if (targets.has(square)) { classes.push(code ? "square--capture" : "square--target"); lit = code ? gettext("capture here") : gettext("move here"); }
        const cell = el("div", {
          class: classes.join(" "), role: "gridcell", "data-square": square,
          "aria-label": squareLabel(square, code, lit), "aria-selected": square === selection.from ? "true" : null,
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
      const pawns = current().captured[side];
      area.className = `captured game-captured captured--${side}`;
      area.dataset.captured = side;
      const places = [];
      for (let i = 0; i < 8; i++) {
        places.push(el("div", { class: "captured__place" }, pawns[i] ? [pawnNode(pawns[i])] : []));
      }
      area.replaceChildren(
        el("span", { class: "captured__title" }, [
          interpolate(gettext("%(side)s's captures"), { side: SIDE_NAMES[side] }, true) + " ",
          el("strong", { class: "captured__points", "data-points": side,
            text: interpolate(gettext("%(points)s pts"), { points: points(pawns) }, true) }),
        ]),
        el("div", { class: "captured__places" }, places),
      );
    }
  }

  function counts(side) {
    const state = current();
    return interpolate(gettext("%(hand)s in hand · %(deck)s in deck"),
      { hand: state.hand_counts[side], deck: state.deck_counts[side] }, true);
  }

  function cardNode(card, playable) {
    const classes = ["card", `card--${sideOfCode(card)}`];
    if (card === selection.card) classes.push("card--selected");
    const idle = page.myTurn() && !playable;
    if (idle) classes.push("card--idle");
    const node = el("button", {
      type: "button", class: classes.join(" "), "data-card": card,
      "aria-pressed": card === selection.card ? "true" : "false",
      "aria-disabled": idle ? "true" : null, // it has no legal action now: faded, and said so
      title: window.CardNames.cardName(card),
    }, [el("span", { class: "card__rank", text: rankOf(card) }), el("span", { class: "card__suit", text: SUITS[suitOf(card)] })]);
    node.addEventListener("click", () => clickCard(card));
    return node;
  }

  function renderHand() {
    const hand = $("hand");
    if (!hand) return;
    const cards = current().hand || [];
    hand.replaceChildren(...cards.map((card) => cardNode(card, actionsOf(card).length > 0)));
    if (!cards.length) hand.append(el("span", { class: "muted", text: gettext("No cards in hand") }));
    // Every legal action of the selected card, one button each, in the server's
    // order: its moves (R7-R11), a release (R12), a burn (R13). The board's
    // clicks are a shortcut; these buttons reach every action by keyboard too.
    const actions = selection.card ? actionsOf(selection.card) : [];
    $("hand-actions").replaceChildren(...actions.map((a) => {
      const button = el("button", { type: "button", class: "button", "data-action": a.text, text: actionLabel(a) });
      button.addEventListener("click", () => page.sendAction(a.text));
      return button;
    }));
  }

  function actionLabel(action) {
    const board = current().board;
    if (action.kind === "burn") return interpolate(gettext("Burn %(card)s"), { card: action.card }, true);
    if (action.kind === "release") {
      const release = action.capture ? gettext("Release %(card)s to %(square)s (captures)") : gettext("Release %(card)s to %(square)s");
      return interpolate(release, { card: action.card, square: action.to }, true);
    }
    if (action.kind !== "move") return action.text;
    const move = { pawn: pawnText(board[action.from]), from: action.from, to: action.to };
    if (action.capture && board[action.to]) {
      return interpolate(gettext("Move %(pawn)s from %(from)s to %(to)s, capturing %(captured)s"),
        { ...move, captured: pawnText(board[action.to]) }, true);
    }
    return interpolate(gettext("Move %(pawn)s from %(from)s to %(to)s"), move, true);
  }

  // Points decide only the rules' endings; after a resignation they would mislead.
  function scoreText(game) {
    const decided = game.reason === "aces" || game.reason === "points";
    return decided && game.score
      ? " · " + interpolate(gettext("points %(red)s–%(black)s"), { red: game.score.red, black: game.score.black }, true) : "";
  }

  function renderMoves() {
    const state = current();
    const red = state.discards.red;
    const black = state.discards.black;
    const rows = [];
    for (let i = 0; i < Math.max(red.length, black.length); i++) {
      rows.push(el("li", { class: "moves__turn" }, [
        notation(red[i] || "", "moves__move moves__move--red"),
        notation(black[i] || "", "moves__move moves__move--black"),
      ]));
    }
    const list = $("moves");
    list.replaceChildren(...rows);
    if (!rows.length) list.append(el("li", { class: "moves__none muted", text: gettext("No moves yet") }));
    list.scrollTop = list.scrollHeight;
  }

  function renderDiscards() {
    const state = current();
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
        el("div", { class: "discards__cards" }, cards.length ? cards : [el("span", { class: "muted", text: gettext("none yet") })]),
      ]);
    });
    $("discards").replaceChildren(...piles);
  }

  // --- Choosing an action -------------------------------------------------

  function clearSelection() {
    selection = { card: null, from: null };
    if (current()) redraw(() => { renderBoard(); renderHand(); });
  }

  function clickCard(card) {
    page.showError(null);
    if (selection.card === card || !page.myTurn()) { clearSelection(); return; }
    selection = { card, from: null };
    const moves = actionsOf(card).filter((a) => a.kind === "move");
    const froms = new Set(moves.map((a) => a.from));
    if (froms.size === 1) selection.from = [...froms][0]; // only one pawn can go: show its targets
    redraw(() => { renderBoard(); renderHand(); });
  }

  function clickSquare(square) {
    if (!selection.card) return;
    const moves = actionsOf(selection.card).filter((a) => a.kind === "move");
    const target = moves.find((a) => a.from === selection.from && a.to === square);
    if (target) { page.sendAction(target.text); return; }
    selection.from = moves.some((a) => a.from === square) ? square : null;
    redraw(renderBoard);
  }

  // A new state: a selection survives only while it is still our turn with that card.
  function newState(_page, moved) {
    const state = current();
    if (moved || !page.myTurn() || (selection.card && !(state.hand || []).includes(selection.card))) {
      selection = { card: null, from: null };
    }
  }

  window.BoardKeys.attach($("board"));
  page = window.GamePage.start({
    seatLabel: (side) => SIDE_NAMES[side],
    fairnessRule: "R19",
    scoreText,
    counts,
    render,
    newState,
    clearSelection,
  });
})();

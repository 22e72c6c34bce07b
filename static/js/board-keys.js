// The live boards by keyboard (static/js/game.js, rhombus.js), as the WAI-ARIA
// grid pattern and lichess's keyboard input have it:
// - a board is one stop in the tab order (a roving tabindex: one square has
//   tabindex 0, the others -1); the arrow keys walk it as it is drawn (a
//   flipped board too), Home and End go to the ends of a rank, Ctrl+Home and
//   Ctrl+End to the corners; Enter or Space acts on a square as a click does;
// - the board's tab stop is the square the player last walked to, or, while
//   the focus is elsewhere, the first lit square (the chosen piece, a piece
//   that can move, a target), so that Shift+Tab from a chosen card lands there;
// - redrawing the board or the cards keeps the focus on the same square, card
//   or button; when that one is gone (a played card, a sent action), the focus
//   goes to the next control of its box, or to the player's cards, never to
//   the page.
(function () {
  "use strict";

  // The attributes that name a control across redraws, most precise first.
  const NAMES = ["data-square", "data-key", "data-action", "data-use", "data-card", "data-command", "data-back", "data-clear"];
  const LIT = [".square--selected", ".square--from", ".square--target, .square--capture, .square--enter"];

  function selectorOf(node) {
    const name = NAMES.find((attribute) => node.hasAttribute(attribute));
    return name ? `[${name}="${CSS.escape(node.getAttribute(name))}"]` : null;
  }

  const focusable = (node) => Boolean(node) && node.isConnected && !node.hidden && !node.disabled;

  function focus(node) {
    node.focus({ preventScroll: true });
  }

  // The board's squares by rank as drawn, top first.
  function ranks(board) {
    return [...board.querySelectorAll('[role="row"]')]
      .map((row) => [...row.querySelectorAll('[role="gridcell"]')])
      .filter((cells) => cells.length);
  }

  // Exactly one square in the tab order (see above).
  function rove(board) {
    const rows = ranks(board);
    if (!rows.length) return;
    const cells = rows.flat();
    let stop = cells.find((cell) => cell === document.activeElement);
    if (!stop) {
      for (const lit of LIT) { stop = stop || board.querySelector(lit); }
    }
    stop = stop || cells.find((cell) => cell.dataset.square === board.dataset.focusSquare)
      || rows[rows.length - 1][0]; // the player's own corner
    for (const cell of cells) cell.tabIndex = cell === stop ? 0 : -1;
  }

  function walk(board, event) {
    const cell = event.target.closest('[role="gridcell"]');
    if (!cell || !board.contains(cell)) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault(); // Space would scroll the page
      cell.click();
      return;
    }
    const rows = ranks(board);
    const r = rows.findIndex((cells) => cells.includes(cell));
    const c = rows[r].indexOf(cell);
    const last = rows.length - 1;
    const to = {
      ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1],
      Home: event.ctrlKey ? [0, 0] : [r, 0],
      End: event.ctrlKey ? [last, rows[last].length - 1] : [r, rows[r].length - 1],
    }[event.key];
    if (!to) return;
    event.preventDefault();
    const next = rows[to[0]] && rows[to[0]][to[1]];
    if (next) next.focus();
  }

  // Once per board element: the squares inside it may be redrawn at will.
  function attach(board) {
    board.dataset.boardKeys = "";
    board.addEventListener("keydown", (event) => walk(board, event));
    board.addEventListener("focusin", (event) => {
      const cell = event.target.closest('[role="gridcell"]');
      if (!cell) return;
      board.dataset.focusSquare = cell.dataset.square;
      rove(board);
    });
    rove(board);
  }

  // Where the focus goes when its control is gone: the next one of the same
  // box, else the player's cards (a playable one first), else a board.
  function fallback(root, box) {
    const inBox = box && box.isConnected ? [...box.querySelectorAll("button, [tabindex='0']")] : [];
    const cards = [...root.querySelectorAll("#hand button")];
    const boards = [...root.querySelectorAll("[data-board-keys] [tabindex='0']")];
    const playable = cards.filter((card) => card.getAttribute("aria-disabled") !== "true");
    return [...inBox, ...playable, ...cards, ...boards].find(focusable) || null;
  }

  // Runs draw(), which may replace any control inside root, and puts the focus
  // back as said above; then sets each board's tab stop.
  function keep(root, draw) {
    const before = document.activeElement;
    const inside = before && before !== document.body && root.contains(before);
    const selector = inside ? selectorOf(before) : null;
    const box = inside ? before.parentElement.closest("[id]") : null;
    draw();
    root.querySelectorAll("[data-board-keys]").forEach(rove); // new squares take focus only with a tabindex
    if (inside && !focusable(before)) {
      const again = selector && box && box.isConnected ? box.querySelector(selector) : null;
      const next = focusable(again) ? again : fallback(root, box);
      if (next) focus(next); // a square's focusin moves its board's tab stop there
    }
  }

  window.BoardKeys = { attach, keep, rove };
})();

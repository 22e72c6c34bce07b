// Rhombus's notation (shared/rules/rhombus.md, "Notation") read and said in
// words, for the live page (rhombus.js) and the replay (replay_rhombus.js).
//
// A player who does not know the notation reads what a use or an action does:
// which card, which piece, from where to where, what it eliminates (issue 35,
// 3). The notation itself is shown beside the words, for those who know it, in
// <span class="notation" translate="no">: the same in every language, and kept
// from browser translators. Words need the board before the action: a kill
// names whose piece it eliminates.
(function () {
  "use strict";

  const CORNERS = { a1: "SW", e1: "SE", e5: "NE", a5: "NW" }; // RH3: each seat's start square

  // One use of an action: "QH b1-b4", "QH+7H c2xc5", "9D @a1", "9D+10D @xa1",
  // "10C 0", "8S mystery", "8S mystery QD".
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

  // A whole action: uses joined by ", ", or elim, react, entry, discard.
  function parseAction(text) {
    const words = text.split(" ");
    if (words[0] === "discard") {
      return { text, kind: "discard", cards: text.slice(8).split(", "), uses: [] };
    }
    if (words[0] === "react") return { text, kind: "react", cards: words.slice(1), uses: [] };
    if (words[0] === "elim") {
      const sq = /^([a-e][1-5])x([a-e][1-5])$/.exec(words[4] || "");
      if (!sq) return { text, kind: "other", cards: [], uses: [] };
      return { text, kind: "elim", cards: words.slice(1, 4), uses: [{ kind: "move", from: sq[1], to: sq[2], capture: true }] };
    }
    if (words[0] === "entry") {
      const sq = /^@x([a-e][1-5])$/.exec(words[5] || "");
      if (!sq) return { text, kind: "other", cards: [], uses: [] };
      return { text, kind: "entry", cards: words.slice(1, 5), uses: [{ kind: "enter", to: sq[1], capture: true }] };
    }
    const uses = text.split(", ").map(parseUse);
    if (uses.some((u) => !u)) return { text, kind: "other", cards: [], uses: [] };
    return { text, kind: "uses", cards: uses.flatMap((u) => u.cards), uses };
  }

  // The board as a use leaves it: a piece moved, or a new one on its start square.
  function applyUse(board, use) {
    const after = { ...board };
    if (use.kind === "move") {
      after[use.to] = after[use.from];
      delete after[use.from];
    } else if (use.kind === "enter") {
      after[use.to] = CORNERS[use.to]; // the start square's own seat (an out player brings in the partner's, RH34)
    }
    return after;
  }

  const face = (code) => window.CardNames.cardText(code); // "Q♥", as the card shows it
  const faces = (codes) => codes.map(face).join(" ");

  // What one use does, in words: "Q♥: move the piece on b1 to b4".
  function useWords(use, board) {
    const victim = board[use.to] || "?";
    switch (use.kind) {
      case "move":
        if (use.capture) {
          return interpolate(gettext("%(card)s with %(kill)s: move the piece on %(from)s to %(to)s and eliminate %(seat)s's piece there (RH16)"),
            { card: face(use.card), kill: face(use.kill), from: use.from, to: use.to, seat: victim }, true);
        }
        return interpolate(gettext("%(card)s: move the piece on %(from)s to %(to)s"),
          { card: face(use.card), from: use.from, to: use.to }, true);
      case "enter":
        if (use.capture) {
          return interpolate(gettext("%(card)s with %(kill)s: bring a new piece onto %(square)s and eliminate %(seat)s's piece there (Entry-Kill, RH18)"),
            { card: face(use.card), kill: face(use.kill), square: use.to, seat: victim }, true);
        }
        return interpolate(gettext("%(card)s: bring a new piece from the reserve onto %(square)s (RH18)"),
          { card: face(use.card), square: use.to }, true);
      case "zero":
        return interpolate(gettext("%(card)s as zero: it moves nothing (RH15)"), { card: face(use.card) }, true);
      case "mystery":
        if (use.taken) {
          return interpolate(gettext("%(card)s, Mystery: moves nothing; %(taken)s goes from the table into the hand (RH19)"),
            { card: face(use.card), taken: face(use.taken) }, true);
        }
        return interpolate(gettext("%(card)s, Mystery: moves nothing; one table place becomes a hand place (RH19)"),
          { card: face(use.card) }, true);
      default:
        return use.text;
    }
  }

  // What a whole action does, in words; its uses one after the other, each on
  // the board as the previous one left it (RH11).
  function actionWords(text, board) {
    const action = parseAction(text);
    const cards = faces(action.cards);
    const target = action.uses.length ? board[action.uses[0].to] || "?" : "";
    switch (action.kind) {
      case "elim":
        return interpolate(gettext("Eliminator with %(cards)s: lift the piece on %(from)s onto %(to)s and eliminate %(seat)s's piece there, protected or not (RH22)"),
          { cards, from: action.uses[0].from, to: action.uses[0].to, seat: target }, true);
      case "react":
        return interpolate(gettext("Reactivation with %(cards)s: one of the eliminated pieces, if there is one, goes back to the reserve (RH23)"),
          { cards }, true);
      case "entry":
        return interpolate(gettext("Entryliminator with %(cards)s: bring a new piece onto %(square)s and eliminate %(seat)s's piece there, protected or not (RH46)"),
          { cards, square: action.uses[0].to, seat: target }, true);
      case "discard":
        return interpolate(ngettext("Discard %(cards)s without using it (RH47, RH48)", "Discard %(cards)s without using them (RH47, RH48)",
          action.cards.length), { cards }, true);
      case "uses": {
        let now = board;
        return action.uses.map((use) => {
          const said = useWords(use, now);
          now = applyUse(now, use);
          return said;
        }).join("; ");
      }
      default:
        return text;
    }
  }

  // The notation beside the words: the same in every language, never translated.
  function notation(text) {
    const span = document.createElement("span");
    span.className = "notation";
    span.setAttribute("translate", "no");
    span.textContent = text;
    return span;
  }

  // Words, then the notation: the children of a button or a line.
  const worded = (words, text) => [words, " ", notation(text)];

  window.RhombusNotation = { CORNERS, parseUse, parseAction, applyUse, useWords, actionWords, notation, worded, faces };
})();

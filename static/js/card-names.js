// A card's or a pawn's name in the reader's language, built in one place from
// translatable parts (Django's JavaScript catalog): "Jack of Clubs", "Kreuz-Bube",
// "Jota de tréboles", "Валет треф", "7 of Spades". The text on a card (J♣, 7♠)
// is the rules' notation and never translated.
(function () {
  "use strict";
  const SUIT_SIGNS = { H: "\u2665", D: "\u2666", S: "\u2660", C: "\u2663" };

  // The suit as it follows "of" ("of Clubs"): a context, for the languages that
  // decline it there (Russian: "треф").
  function suitName(suit) {
    switch (suit) {
      case "H": return pgettext("card suit, as in Ace of Hearts", "Hearts");
      case "D": return pgettext("card suit, as in Ace of Diamonds", "Diamonds");
      case "S": return pgettext("card suit, as in Ace of Spades", "Spades");
      case "C": return pgettext("card suit, as in Ace of Clubs", "Clubs");
      default: return suit;
    }
  }

  function rankName(rank) {
    switch (rank) {
      case "A": return pgettext("card rank", "Ace");
      case "K": return pgettext("card rank", "King");
      case "Q": return pgettext("card rank", "Queen");
      case "J": return pgettext("card rank", "Jack");
      default: return rank; // number cards keep their number
    }
  }

  // Rhombus writes its cards as its rules and refusals do, in English "Q of hearts"
  // (engine/rhombus): the rank as on the card, the suit in lower case.
  function rhombusSuitName(suit) {
    switch (suit) {
      case "H": return pgettext("Rhombus card suit, as in 10 of hearts", "hearts");
      case "D": return pgettext("Rhombus card suit, as in 10 of diamonds", "diamonds");
      case "S": return pgettext("Rhombus card suit, as in 10 of spades", "spades");
      case "C": return pgettext("Rhombus card suit, as in 10 of clubs", "clubs");
      default: return suit;
    }
  }

  function rhombusRankName(rank) {
    switch (rank) {
      case "A": return pgettext("Rhombus card rank, as in A of hearts", "A");
      case "K": return pgettext("Rhombus card rank, as in K of hearts", "K");
      case "Q": return pgettext("Rhombus card rank, as in Q of hearts", "Q");
      case "J": return pgettext("Rhombus card rank, as in J of hearts", "J");
      default: return rank;
    }
  }

  const ofSuit = (rank, suit) => interpolate(gettext("%(rank)s of %(suit)s"), { rank: rank, suit: suit }, true);

  // "KH" -> "King of Hearts" (Ace in the Hole's pawns and cards)
  const cardName = (code) => ofSuit(rankName(code.slice(0, -1)), suitName(code.slice(-1)));

  // "QH" -> "Q of hearts" (Rhombus's cards)
  const rhombusCardName = (code) => ofSuit(rhombusRankName(code.slice(0, -1)), rhombusSuitName(code.slice(-1)));

  // "JC" -> "J♣": what a card or a pawn shows.
  const cardText = (code) => code.slice(0, -1) + (SUIT_SIGNS[code.slice(-1)] || "");

  window.CardNames = { cardName, rhombusCardName, cardText, SUIT_SIGNS };
})();

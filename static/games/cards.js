/* Luzi cards as cards: the same faces as the table page (table.js), shared by pages that draw
 * cards outside the table (the replay viewer). window.LuziCards(T, level) gives the functions;
 * T holds the words for the jokers (bigJoker, smallJoker), level the rank drawn as 级牌.
 */
(function () {
  "use strict";

  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var CARD_TOKEN = /(^|[^\w])(10|[2-9JQKA])([SHDC])(?![\w])|(^|[^\w])([BS])J(?![\w])/g;

  window.LuziCards = function (T, levelOf) {
    function cardParts(token) {
      if (token === "BJ") return { rank: T.bigJoker, suit: "", joker: "big" };
      if (token === "SJ") return { rank: T.smallJoker, suit: "", joker: "small" };
      return { rank: token.slice(0, -1), suit: token.slice(-1), joker: "" };
    }

    function cardEl(token, tag) {
      var el = document.createElement(tag || "span");
      var p = cardParts(token);
      el.className = "card-face" + (p.suit === "H" || p.suit === "D" || p.joker === "big" ? " red" : "") +
        (p.joker ? " joker" : "");
      var level = levelOf ? levelOf() : null;
      if (level && p.rank === level) el.className += " level";
      el.dataset.token = token;
      var r = document.createElement("span");
      r.className = "rank";
      r.textContent = p.rank;
      el.appendChild(r);
      if (p.suit) {
        var s = document.createElement("span");
        s.className = "suit";
        s.textContent = SUITS[p.suit] || p.suit;
        el.appendChild(s);
      }
      el.setAttribute("aria-label", p.joker ? p.rank : p.rank + (SUITS[p.suit] || p.suit));
      return el;
    }

    function cardsRow(text) {
      var row = document.createElement("span");
      row.className = "cards";
      (text || "").split(" ").filter(Boolean).forEach(function (t) { row.appendChild(cardEl(t)); });
      return row;
    }

    function prettyCards(text) {
      return String(text || "").replace(CARD_TOKEN, function (_m, pre, rank, suit, pre2, joker) {
        if (joker) return pre2 + (joker === "B" ? T.bigJoker : T.smallJoker);
        return pre + rank + SUITS[suit];
      });
    }

    return { cardEl: cardEl, cardsRow: cardsRow, prettyCards: prettyCards };
  };
})();

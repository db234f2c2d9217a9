/* Luzi table page: shows the state the server sends and sends the player's choices.
 *
 * No rule of the game lives here. The server decides everything: the hand arrives sorted in the
 * deal's single-card order, the legal plays arrive with the state, and a selection is explained by
 * the server (POST check/) before it is sent. This file only draws, selects and talks.
 */
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("table-config").textContent);
  var T = JSON.parse(document.getElementById("table-strings").textContent);
  var mySeat = config.seat;
  // what the table shows of its game comes from the game's package, as data (describe.js)
  var UI = config.ui || {};
  var D = window.LuziDescribe(T, UI, {
    fmt: fmt, seatName: seatName, sideName: sideName, cardsRow: cardsRow, pointsTable: pointsTable,
    cardsText: prettyCards,
  });
  var seatCount = config.seatCount || 6;
  var state = null;
  var selected = []; // indexes into the hand's tokens
  var socketUp = false; // whether the WebSocket is open (else the page is away from the table)
  var bySuit = false;
  var verdict = null; // the server's last answer for the current selection
  var notice = ""; // why the last action did not go through (kept above the next verdict)
  var checkTimer = null;
  var checkToken = 0;
  var sending = false;
  var socket = null;
  var retries = 0;
  var pollTimer = null;
  var autoPassTimer = null;

  var $ = function (id) { return document.getElementById(id); };

  function fmt(template, values) {
    // a count's words come in plural forms ({one, other}), chosen by the count n
    if (template && typeof template === "object") template = Number(values.n) === 1 ? template.one : template.other;
    return String(template).replace(/%\((\w+)\)s/g, function (_m, key) {
      return values[key] === undefined ? "" : String(values[key]);
    });
  }

  // --- cards -----------------------------------------------------------------------------------
  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

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
    if (state && state.deal && UI.levelKey && p.rank === state.deal[UI.levelKey]) el.className += " level";
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

  // card codes inside a sentence (the server's explanations, 进贡 lines) read as cards: 2♠, 大怪
  var CARD_TOKEN = /(^|[^\w])(10|[2-9JQKA])([SHDC])(?![\w])|(^|[^\w])([BS])J(?![\w])/g;
  function prettyCards(text) {
    return String(text || "").replace(CARD_TOKEN, function (_m, pre, rank, suit, pre2, joker) {
      if (joker) return pre2 + (joker === "B" ? T.bigJoker : T.smallJoker);
      return pre + rank + SUITS[suit];
    });
  }

  function cardsRow(text) {
    var row = document.createElement("span");
    row.className = "cards";
    (text || "").split(" ").filter(Boolean).forEach(function (t) { row.appendChild(cardEl(t)); });
    return row;
  }

  // --- state helpers ---------------------------------------------------------------------------
  function hand() { return state && state.you && state.you.hand ? state.you.hand.split(" ").filter(Boolean) : []; }
  function deal() { return state ? state.deal : null; }
  // a seat without a player is named by its number, counted from 1 as people count seats
  function seatName(seat) { return state.seats[seat] ? playerName(state.seats[seat]) : "#" + (seat + 1); }
  function playerName(s) {
    // a practice bot's name is stored the same in every language ("Bot 2"): shown in the page's
    var bot = s.is_bot && /^(?:Bot|机器人) (\d+)$/.exec(s.player);
    return bot ? fmt(T.botName, { number: bot[1] }) : s.player;
  }
  function legalActions() { return state && state.you ? state.you.legal || [] : []; }
  function myTurn() {
    var d = deal();
    return mySeat !== null && d && d.phase === "play" && d.turn === mySeat;
  }
  function myChoice() {
    // a decision of another phase than play: 宣牌/反宣 (小路子), bids, 摊打, 报到, 打 (斗地主)
    var d = deal();
    return mySeat !== null && d && d.phase !== "play" && d.phase !== "over" &&
      d.phase !== "return" && (d.awaiting || []).indexOf(mySeat) >= 0;
  }
  function canPass() {
    return legalActions().some(function (a) { return a.kind === "pass"; });
  }
  function myReturn() {
    var d = deal();
    return mySeat !== null && d && d.phase === "return" && d.awaiting.indexOf(mySeat) >= 0;
  }
  function newer(next) {
    if (!state) return true;
    if (next.match && state.match && next.match.id !== state.match.id) return next.match.id > state.match.id;
    if (next.deal_number !== state.deal_number) return next.deal_number > state.deal_number;
    return next.seq >= state.seq;
  }

  // --- drawing ---------------------------------------------------------------------------------
  function position(seat) {
    var base = mySeat === null ? 0 : mySeat;
    // 0 bottom (you), then the others in play order counter-clockwise: right, top, left...
    return (seat - base + seatCount) % seatCount;
  }

  function sideLabels() {
    // in the levels and points lines: the teams' names, else the letters
    var names = config.sideNames || {};
    return { A: names.A || "A", B: names.B || "B" };
  }
  function sideName(side) {
    // a team event's table names its teams; otherwise the side's letter (A 队 / B 队)
    return (config.sideNames || {})[side] || (side === "A" ? T.sideA : T.sideB);
  }
  function winnerName(winner) {
    // a side (大怪路子) or, for games without fixed sides, a seat written as a string
    if (winner === "A" || winner === "B") return sideName(winner);
    return /^\d+$/.test(String(winner)) ? seatName(Number(winner)) : String(winner);
  }

  function addTag(head, text, cls, title) {
    var tag = document.createElement("span");
    tag.className = "tag" + (cls ? " " + cls : "");
    tag.textContent = text;
    if (title) tag.title = title;
    head.appendChild(tag);
    return tag;
  }

  function ctx(extra) {
    // what the game's description reads: the deal's view, the match, the sides' names, you
    var c = { v: deal(), m: state ? state.match : null, sides: sideLabels(), me: mySeat };
    Object.keys(extra || {}).forEach(function (k) { c[k] = extra[k]; });
    return c;
  }

  function roleTags(head, seat) {
    // what the rules show of each seat's role in the deal (the game's "roles")
    if (!deal()) return;
    D.entries(UI.roles, ctx({ seat: seat })).forEach(function (found) {
      var e = found.entry;
      addTag(head, D.text(e.text, found.ctx), D.text(e.cls || "", found.ctx), e.title ? D.text(e.title, found.ctx) : undefined);
    });
  }

  function seatExtras(box, s) {
    // cards a seat shows face up (the game's "shown": 摊打's hand, 小路子's bystanders at the end)
    if (!deal() || s.seat === mySeat) return;
    var shown = null;
    D.entries(UI.shown, ctx({ seat: s.seat })).forEach(function (found) {
      var cards = D.value({ get: found.entry.cards }, found.ctx);
      if (cards) shown = cards;
    });
    if (shown) {
      var face = document.createElement("div");
      face.className = "seat-open";
      face.appendChild(cardsRow(shown));
      box.appendChild(face);
    }
  }

  function lastInTrick(seat) {
    var d = deal();
    if (!d || !d.trick) return null;
    var found = null;
    d.trick.actions.forEach(function (a) { if (a.seat === seat) found = a; });
    return found;
  }

  function drawSeats() {
    var d = deal();
    state.seats.forEach(function (s) {
      var box = document.querySelector('.seat[data-pos="' + position(s.seat) + '"]');
      box.innerHTML = "";
      box.className = "seat pos-" + position(s.seat) + (s.side ? " side-" + s.side : "");
      box.id = "seat-" + s.seat;
      if (d && d.turn === s.seat && d.phase === "play") box.className += " turn";
      if (d && d.awaiting && d.awaiting.indexOf(s.seat) >= 0) box.className += " awaiting";
      if (s.seat === mySeat) box.className += " me";
      var head = document.createElement("div");
      head.className = "seat-head";
      var name = document.createElement("strong");
      name.textContent = playerName(s);
      head.appendChild(name);
      if (s.is_bot) {
        var bot = document.createElement("span");
        bot.className = "tag bot";
        bot.textContent = T.bot;
        head.appendChild(bot);
      }
      if (s.side) addTag(head, sideName(s.side));
      roleTags(head, s.seat);
      if (s.online === false && s.seat !== mySeat && state.match && state.match.status === "playing") {
        var away = document.createElement("span");
        away.className = "tag away";
        away.textContent = T.away;
        away.title = T.awayTitle;
        head.appendChild(away);
      }
      if (s.auto) {
        var auto = document.createElement("span");
        auto.className = "tag auto";
        auto.textContent = T.auto;
        auto.title = T.autoTitle;
        head.appendChild(auto);
      }
      if (d && d.dealer === s.seat) {
        var dealer = document.createElement("span");
        dealer.className = "tag dealer";
        dealer.textContent = T.dealer;
        head.appendChild(dealer);
      }
      box.appendChild(head);
      var info = document.createElement("div");
      info.className = "seat-info";
      var bits = [];
      if (s.cards !== null && s.cards !== undefined) bits.push(fmt(T.cardsLeft, { n: s.cards }));
      if (d && d.finish && d.finish.indexOf(s.seat) >= 0) bits.push(fmt(T.finished, { n: d.finish.indexOf(s.seat) + 1 }));
      if (d) {
        D.entries(UI.seatInfo, ctx({ seat: s.seat })).forEach(function (found) {
          bits.push(D.text(found.entry.text, found.ctx));
        });
      }
      if (state.match && state.match.points && UI.seatPoints) {
        bits.push(fmt(T.pointsOf, { n: state.match.points[s.seat] }));
      }
      var sys = (state.system_play || [])[s.seat];
      if (sys && sys.used > 0) {
        bits.push(fmt(sys.limit ? T.systemPlaysOf : T.systemPlays, { n: sys.used, limit: sys.limit }));
      }
      info.textContent = bits.join(" · ");
      box.appendChild(info);
      var last = lastInTrick(s.seat);
      var played = document.createElement("div");
      played.className = "seat-play";
      if (last && last.kind === "pass") {
        played.textContent = T.passed;
        played.className += " passed";
      } else if (last && last.cards) {
        played.appendChild(cardsRow(last.cards));
      }
      box.appendChild(played);
      seatExtras(box, s);
      if (d && d.awaiting && d.awaiting.indexOf(s.seat) >= 0 && state.deadline) {
        var clock = document.createElement("div");
        clock.className = "countdown";
        clock.dataset.deadline = state.deadline;
        box.appendChild(clock);
      }
    });
  }

  function drawCenter() {
    var d = deal();
    var trick = $("trick");
    var last = $("last-trick");
    trick.innerHTML = "";
    last.textContent = "";
    if (!d) return;
    var m = state.match;
    if ((m && m.status !== "playing") || d.phase === "over") {
      // the deal (or the match) is over: its end, not the last play "to beat"
      trick.textContent = m && m.status !== "playing" ? matchEndText() : T.betweenDeals;
      trick.className = "trick ended";
      return;
    }
    trick.className = "trick";
    if (d.trick && d.trick.current) {
      var who = document.createElement("div");
      who.className = "meta";
      who.textContent = fmt(T.toBeat, { name: seatName(d.trick.current_seat) });
      trick.appendChild(who);
      trick.appendChild(cardsRow(d.trick.current));
    } else if (d.phase === "play") {
      trick.textContent = fmt(T.leads, { name: seatName(d.turn) });
    }
    if (d.last_trick && (!d.trick || !d.trick.actions.length)) {
      last.textContent = fmt(T.lastTrick, { name: seatName(d.last_trick.winner) });
    }
  }

  function drawHead() {
    var m = state.match;
    var d = deal();
    if (!m) {
      $("deal-info").textContent = T.noMatch;
      $("level-info").textContent = "";
      return;
    }
    // deals as people count them: a deal dealt again (荒番) keeps the place of the one it replaces
    $("deal-info").textContent = fmt(T.dealOf, { n: state.deal_ordinal || m.deal_number, total: m.deals_per_match });
    // the game's own line: 大怪路子's levels and points, 小路子's mode...
    $("level-info").textContent = UI.head ? D.text(UI.head, ctx()) : "";
  }

  function drawHand() {
    var box = $("hand");
    if (!box) return;
    box.innerHTML = "";
    var tokens = hand();
    var order = tokens.map(function (_t, i) { return i; });
    if (bySuit) {
      var rankOf = function (t) { return t === "BJ" || t === "SJ" ? "" : t.slice(-1); };
      var suitOrder = { "": 0, S: 1, H: 2, C: 3, D: 4 };
      order.sort(function (a, b) {
        return (suitOrder[rankOf(tokens[a])] - suitOrder[rankOf(tokens[b])]) || (a - b);
      });
    }
    var prevGroup = null;
    order.forEach(function (i) {
      var t = tokens[i];
      var group = bySuit ? (t === "BJ" || t === "SJ" ? "J" : t.slice(-1)) : t.slice(0, -1);
      var btn = cardEl(t, "button");
      btn.type = "button";
      btn.dataset.index = i;
      if (prevGroup !== null && group !== prevGroup) btn.className += " group-start";
      prevGroup = group;
      if (selected.indexOf(i) >= 0) {
        btn.className += " selected";
        btn.setAttribute("aria-pressed", "true");
      } else {
        btn.setAttribute("aria-pressed", "false");
      }
      box.appendChild(btn);
    });
  }

  function setMessage(text, kind) {
    var el = $("message");
    el.textContent = prettyCards(text);
    el.className = "message" + (kind ? " " + kind : "");
  }

  function drawPrompt() {
    var d = deal();
    var m = state.match;
    var text = "";
    if (!m) text = T.noMatch;
    else if (m.status !== "playing") text = matchEndText();
    else if (!d || d.phase === "over") text = T.betweenDeals;
    else if (myChoice()) text = T.choose[d.phase] || T.chooseAny;
    else if (UI.waitAwaiting && d.phase !== "play" && d.awaiting && d.awaiting.length) {
      text = fmt(T.waitingFor, { name: d.awaiting.map(seatName).join(", ") });
    } else if (myReturn()) {
      text = UI.returnPrompt ? D.text(UI.returnPrompt, ctx()) : "";
    } else if (d.phase === "return") {
      text = fmt(T.waitingReturn, { names: d.awaiting.map(seatName).join(", ") });
    } else if (myTurn()) {
      text = d.trick && d.trick.current ? T.yourTurnFollow : T.yourTurnLead;
    } else if (d.turn !== null && d.turn !== undefined) {
      text = fmt(T.waitingFor, { name: seatName(d.turn) });
    }
    $("prompt").textContent = text;
    if ($("bar-prompt")) $("bar-prompt").textContent = text; // the phone's bottom bar
  }

  function matchEndText() {
    // the match is over: who won and why it ended, in the rules' words
    var m = state.match;
    var text = T.matchOver + " " + (m.winner ? fmt(T.matchWinner, { side: winnerName(m.winner) }) : T.matchTie);
    if (m.end_reason) text += " (" + (T.endReasons[m.end_reason] || m.end_reason) + ")";
    var by = escapedBySystem();
    return by ? text + " " + by : text;
  }

  function escapedBySystem() {
    // an escape the system's plays made (托管 up to the rules' limit): said as such
    var m = state.match;
    if (!m || m.end_reason !== "escape") return "";
    var text = "";
    (state.system_play || []).forEach(function (p, seat) {
      if (p && p.reached) text = fmt(T.escapeBySystem, { name: seatName(seat), n: p.used });
    });
    return text;
  }

  function drawBanner() {
    var box = $("away-banner");
    if (!box) return;
    var playing = state && state.match && state.match.status === "playing";
    var mine = mySeat !== null ? (state.system_play || [])[mySeat] : null;
    var lost = playing && !socketUp && retries > 0;
    var text = "";
    if (lost) {
      text = T.bannerOffline;
    } else if (playing && mine && mine.used > 0) {
      // 托管: how often the system has played for the player, and how many more are an escape
      text = fmt(mine.in_a_row ? T.bannerAutoRow : T.bannerAuto, { n: mine.used });
      if (mine.left === 1) text += " " + T.bannerLast;
      else if (mine.left) text += " " + fmt(T.bannerLimit, { n: mine.left });
    }
    box.textContent = text;
    box.hidden = !text;
    box.className = "away-banner" + (lost ? " offline" : "");
  }

  function drawControls() {
    if (mySeat === null || !$("btn-play")) return;
    var turn = myTurn();
    var ret = myReturn();
    var d = deal();
    $("btn-play").hidden = ret;
    $("btn-return").hidden = !ret;
    $("btn-play").disabled = sending || !turn || !selected.length || (verdict && !verdict.ok);
    $("btn-return").disabled = sending || selected.length !== 1;
    // the game's rule for a pass: whenever a play is to be beaten, or when the legal actions hold one
    $("btn-pass").disabled = sending || !turn || (UI.passRule === "trick" ? !(d && d.trick && d.trick.current) : !canPass());
    drawChoices();
    $("btn-hint").disabled = !(turn || ret);
    var playing = state.match && state.match.status === "playing";
    $("btn-leave").disabled = !playing;
  }

  function choiceLabel(a) {
    // a decision's button: the game's words for its kind ("buttons"), else the kind's name
    var button = (UI.buttons || {})[a.kind];
    if (button) return D.text(button, ctx({ a: a }));
    return T.kinds[a.kind] || a.kind;
  }

  function drawChoices() {
    // the decisions of the bidding and declaring phases: one button per legal action, sent as it is
    var box = $("choices");
    if (!box) return;
    box.innerHTML = "";
    var show = myChoice();
    box.hidden = !show;
    if (!show) return;
    legalActions().forEach(function (a) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "choice" + (a.kind === "pass" || a.kind.indexOf("no_") === 0 || a.value === 0 ? "" : " primary");
      b.dataset.kind = a.kind;
      if (a.value !== undefined) b.dataset.value = a.value;
      b.textContent = choiceLabel(a);
      if (a.cards) b.appendChild(cardsRow(a.cards));
      b.disabled = sending;
      b.addEventListener("click", function () { sendAction(a); });
      box.appendChild(b);
    });
  }

  function factRow(box, label, content) {
    var row = document.createElement("div");
    row.className = "fact";
    var l = document.createElement("span");
    l.className = "fact-label";
    l.textContent = label;
    row.appendChild(l);
    if (typeof content === "string") {
      var t = document.createElement("span");
      t.textContent = content;
      row.appendChild(t);
    } else if (content) {
      row.appendChild(content);
    }
    box.appendChild(row);
    return row;
  }

  function drawFacts() {
    // the deal's facts as the game lists them ("facts": bids, 底牌, the mode, the score...)
    var box = $("facts");
    if (!box) return;
    box.innerHTML = "";
    var m = state.match;
    box.hidden = !(UI.facts || []).length || !m;
    if (box.hidden) return;
    D.entries(UI.facts, ctx()).forEach(function (found) {
      var e = found.entry;
      var content = D.content(e.value, found.ctx);
      if (e.skipEmpty && !content) return;
      var row = factRow(box, D.text(e.label, found.ctx), content);
      if (e.id) row.id = e.id;
    });
  }

  function resultText(r) {
    // a deal's result in the game's words ("result")
    if (!r) return "";
    return D.text(UI.result, ctx({ r: r }));
  }

  function resultBlocks(box, list, c) {
    // paragraphs and points tables the game adds to a deal's result
    D.entries(list, c).forEach(function (found) {
      var e = found.entry;
      if (e.h2 !== undefined) {
        var h = document.createElement("h2");
        h.textContent = D.text(e.h2, found.ctx);
        box.appendChild(h);
      }
      if (e.p !== undefined) {
        var p = document.createElement("p");
        p.textContent = D.text(e.p, found.ctx);
        box.appendChild(p);
      }
      if (e.points !== undefined) box.appendChild(pointsTable(D.value({ get: e.points }, found.ctx) || {}));
    });
  }

  function pointsTable(points) {
    var table = document.createElement("table");
    table.className = "points";
    var head = document.createElement("tr");
    var row = document.createElement("tr");
    state.seats.forEach(function (s) {
      var th = document.createElement("th");
      th.textContent = playerName(s);
      head.appendChild(th);
      var td = document.createElement("td");
      var p = points[String(s.seat)] !== undefined ? points[String(s.seat)] : points[s.seat];
      td.textContent = p > 0 ? "+" + p : String(p);
      row.appendChild(td);
    });
    table.appendChild(head);
    table.appendChild(row);
    return table;
  }

  function drawResult() {
    var box = $("result");
    var d = deal();
    var m = state.match;
    box.innerHTML = "";
    var show = d && d.phase === "over" && d.result;
    // what the deal waits on before play, as the game shows it (大怪路子's 进贡 and 还贡)
    var pending = d ? D.entries(UI.pending, ctx()).length : 0;
    if (!show && !pending && !(m && m.status !== "playing")) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    if (pending) resultBlocks(box, UI.pending, ctx());
    if (show) {
      var h2 = document.createElement("h2");
      h2.id = "deal-result";
      h2.textContent = fmt(T.dealResult, { n: state.deal_ordinal || state.deal_number });
      box.appendChild(h2);
      var p2 = document.createElement("p");
      p2.textContent = resultText(d.result);
      box.appendChild(p2);
      resultBlocks(box, UI.resultBefore, ctx({ r: d.result }));
      box.appendChild(pointsTable(d.result.points));
      resultBlocks(box, UI.resultAfter, ctx({ r: d.result }));
    }
    if (m && m.status !== "playing") {
      var h3 = document.createElement("h2");
      h3.id = "match-over";
      h3.textContent = T.matchOver;
      box.appendChild(h3);
      var p3 = document.createElement("p");
      p3.textContent = (m.winner ? fmt(T.matchWinner, { side: winnerName(m.winner) }) : T.matchTie) +
        (m.end_reason ? " (" + (T.endReasons[m.end_reason] || m.end_reason) + ")" : "") +
        (escapedBySystem() ? " " + escapedBySystem() : "");
      box.appendChild(p3);
      box.appendChild(pointsTable(m.points));
      if (mySeat !== null) {
        var again = document.createElement("p");
        again.innerHTML = "";
        var a = document.createElement("a");
        a.href = config.mePath;
        a.textContent = T.backToMyPage;
        again.appendChild(a);
        box.appendChild(again);
      }
    }
  }

  function tickCountdowns() {
    var now = Date.now();
    document.querySelectorAll(".countdown").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Date.parse(el.dataset.deadline) - now) / 1000));
      el.textContent = fmt(T.secondsLeft, { n: left });
      el.className = "countdown" + (left <= 5 ? " urgent" : "");
    });
  }

  function keepSelection(oldTokens, oldDeal) {
    // The selected cards stay selected while they are still in the hand of the same deal (the
    // hand changes with a tribute or a return): re-find each one in the new hand.
    var picked = selected.map(function (i) { return oldTokens[i]; });
    selected = [];
    if (!state.you || state.deal_number !== oldDeal) return;
    var tokens = hand();
    picked.forEach(function (t) {
      for (var i = 0; i < tokens.length; i++) {
        if (tokens[i] === t && selected.indexOf(i) < 0) { selected.push(i); return; }
      }
    });
  }

  function render(next, force) {
    if (!force && !newer(next)) return;
    var oldHand = state && state.you ? state.you.hand : null;
    var oldTokens = hand();
    var oldDeal = state ? state.deal_number : null;
    var oldKey = state ? [state.deal_number, state.seq].join(":") : "";
    state = next;
    if (!state.you || state.you.hand !== oldHand) {
      var before = selected.length;
      keepSelection(oldTokens, oldDeal);
      if (selected.length !== before) verdict = null;
      hideHints(); // its plays were those of the old hand
    }
    if (oldKey !== [state.deal_number, state.seq].join(":")) {
      verdict = null;
      if (selected.length) scheduleCheck(true);
    }
    document.body.dataset.seq = state.seq;
    document.body.dataset.deal = state.deal_number;
    document.body.dataset.turn = myTurn() || myChoice() || myReturn() ? "mine" : "";
    drawHead();
    drawSeats();
    drawCenter();
    drawHand();
    drawPrompt();
    drawControls();
    drawBanner();
    drawFacts();
    drawResult();
    tickCountdowns();
    maybeAutoPass();
    if (state.match && state.match.status !== "playing") setConn("over");
    // the result screen and the deal history (table_result.js) draw from the same state
    document.dispatchEvent(new CustomEvent("luzi:state", { detail: state }));
  }

  // --- selecting and checking ------------------------------------------------------------------
  function selectedCards() {
    var tokens = hand();
    return selected.map(function (i) { return tokens[i]; }).join(" ");
  }

  function scheduleCheck(keepNotice) {
    clearTimeout(checkTimer);
    verdict = null;
    if (!keepNotice) notice = "";
    setMessage(notice, notice ? "bad" : ""); // the last word was about another selection
    if (!selected.length) {
      drawControls();
      return;
    }
    checkTimer = setTimeout(check, 120);
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": config.csrfToken },
      body: JSON.stringify(body || {}),
    }).then(function (response) {
      return response.json().catch(function () { return { detail: T.serverError }; })
        .then(function (data) { return { status: response.status, data: data }; });
    });
  }

  function check() {
    var token = ++checkToken;
    var cards = selectedCards();
    if (!cards) return; // the selection went meanwhile (the cards were played)
    post(config.checkUrl, { cards: cards }).then(function (r) {
      if (token !== checkToken) return;
      if (r.status !== 200) {
        verdict = { ok: false, message: r.data.detail || T.serverError };
      } else {
        verdict = r.data;
      }
      setMessage((notice ? notice + " " : "") + verdict.message, verdict.ok ? "ok" : "bad");
      drawControls();
    }).catch(function () { setMessage(T.offline, "bad"); });
  }

  function toggle(index) {
    var at = selected.indexOf(index);
    if (at >= 0) selected.splice(at, 1); else selected.push(index);
    drawHand();
    scheduleCheck();
    drawControls();
  }

  function selectCards(text) {
    var tokens = hand();
    var want = text.split(" ").filter(Boolean);
    selected = [];
    want.forEach(function (t) {
      for (var i = 0; i < tokens.length; i++) {
        if (tokens[i] === t && selected.indexOf(i) < 0) { selected.push(i); break; }
      }
    });
    drawHand();
    scheduleCheck();
    drawControls();
  }

  // --- hints -----------------------------------------------------------------------------------
  function hideHints() {
    var box = $("hints");
    if (box) { box.hidden = true; box.innerHTML = ""; }
  }

  function showHints() {
    var box = $("hints");
    if (!box.hidden) { hideHints(); return; }
    box.innerHTML = "";
    var plays = legalActions().filter(function (a) { return a.cards && (a.kind === "play" || a.kind === "return"); });
    var title = document.createElement("p");
    title.className = "meta";
    var canPass = legalActions().some(function (a) { return a.kind === "pass"; });
    title.textContent = plays.length ? fmt(T.hintCount, { n: plays.length }) + (canPass ? " " + T.hintPass : "")
      : T.hintNone;
    box.appendChild(title);
    plays.slice(0, 40).forEach(function (a) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "hint";
      b.appendChild(cardsRow(a.cards));
      b.addEventListener("click", function () { selectCards(a.cards); });
      box.appendChild(b);
    });
    if (plays.length > 40) {
      var more = document.createElement("p");
      more.className = "meta";
      more.textContent = fmt(T.hintMore, { n: plays.length - 40 });
      box.appendChild(more);
    }
    box.hidden = false;
  }

  // --- acting ----------------------------------------------------------------------------------
  function send(action, cards) {
    sendBody({ action: action, cards: cards || "" });
  }

  function sendAction(legal) {
    // one of the state's legal actions, sent back as it is
    sendBody({ action: legal });
  }

  function sendBody(body) {
    if (sending || !state) return;
    sending = true;
    clearTimeout(checkTimer); // a check answered after this action would speak of the past
    checkToken += 1;
    drawControls();
    body.seq = state.seq;
    if (state.deal_number) body.deal = state.deal_number;
    post(config.actionUrl, body).then(function (r) {
      sending = false;
      if (r.status === 200) {
        selected = [];
        verdict = null;
        notice = "";
        hideHints();
        setMessage("");
        render(r.data);
      } else {
        var text = r.data.detail || T.serverError;
        if (r.status === 409) notice = text = T.stale;  // the selection stays while held
        setMessage(text, "bad");
        if (r.status === 409) resync();
      }
      drawControls();
    }).catch(function () {
      sending = false;
      setMessage(T.offline, "bad");
      drawControls();
    });
  }

  function play() {
    if (!selected.length) { setMessage(T.selectFirst, "bad"); return; }
    if (verdict && !verdict.ok) { setMessage(verdict.message, "bad"); return; }
    send("play", selectedCards());
  }

  function maybeAutoPass() {
    clearTimeout(autoPassTimer);
    var box = $("auto-pass");
    if (!box || !box.checked || !myTurn()) return;
    var legal = legalActions();
    var onlyPass = legal.length && legal.every(function (a) { return a.kind === "pass"; });
    if (!onlyPass) return;
    var seq = state.seq;
    autoPassTimer = setTimeout(function () {
      if (state.seq === seq && myTurn()) send("pass");
    }, 800);
  }

  // --- live updates ----------------------------------------------------------------------------
  function setConn(kind) {
    var el = $("conn");
    var over = state && state.match && state.match.status !== "playing";
    // once the match is over, the badge says so (nothing live is left to follow)
    el.dataset.state = over ? "over" : kind;
    el.textContent = over ? T.matchOverConn : T.conn[kind];
  }

  function resync() {
    return fetch(config.stateUrl, { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) { if (data && data.seats) render(data, true); })
      .catch(function () { setConn("offline"); });
  }

  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(resync, 2000);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  function connect() {
    if (!("WebSocket" in window)) { setConn("polling"); startPolling(); return; }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + config.wsPath);
    setConn(retries ? "reconnecting" : "connecting");
    socket.onopen = function () {
      socketUp = true;
      setConn("live");
      stopPolling();
      if (state) drawBanner();
    };
    socket.onmessage = function (event) {
      var msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      // The backoff starts over only with a state: a server out of Redis connections accepts
      // and closes at once (1013, try again), and those pages must not all come back each second.
      if (msg.type === "state") { retries = 0; render(msg.state); }
      if (msg.type === "pong") clearTimeout(pingTimer);
      // the round's clock changed (static/clock.js reads it again)
      if (msg.type === "clock") document.dispatchEvent(new CustomEvent("luzi:clock"));
    };
    socket.onclose = function () {
      socket = null;
      socketUp = false;
      retries += 1;
      setConn("reconnecting");
      if (state) drawBanner();
      startPolling(); // keep the page fresh while the socket is away
      clearTimeout(reconnectTimer);
      var backoff = Math.min(10000, 500 * Math.pow(2, Math.min(retries, 5)));
      reconnectTimer = setTimeout(connect, backoff * (0.75 + Math.random() / 2)); // spread out
    };
  }

  var reconnectTimer = null;
  var pingTimer = null;

  function reconnectNow() {
    // Back from a locked screen, another app or a lost network: reconnect at once (the server
    // sends the whole state on connect) instead of waiting for the backoff. A socket that still
    // looks open must answer a ping within 4 s, else it is replaced.
    if (document.visibilityState === "hidden") return;
    if (socket && socket.readyState === 1) {
      resync();
      clearTimeout(pingTimer);
      var probed = socket;
      pingTimer = setTimeout(function () { if (socket === probed) probed.close(); }, 4000);
      socket.send(JSON.stringify({ type: "ping" }));
      return;
    }
    if (socket && socket.readyState === 0) return; // connecting already
    if (socket) { socket.onclose = null; socket.close(); socket = null; }
    clearTimeout(reconnectTimer);
    retries = Math.max(retries, 1);
    connect();
  }

  // --- wiring ----------------------------------------------------------------------------------
  function wire() {
    if (mySeat === null) return;
    $("hand").addEventListener("click", function (event) {
      var btn = event.target.closest("button[data-index]");
      if (btn) toggle(Number(btn.dataset.index));
    });
    $("btn-play").addEventListener("click", play);
    $("btn-return").addEventListener("click", function () {
      if (selected.length !== 1) { setMessage(T.selectOne, "bad"); return; }
      send("return", selectedCards());
    });
    $("btn-pass").addEventListener("click", function () { send("pass"); });
    $("btn-clear").addEventListener("click", function () {
      selected = [];
      drawHand();
      scheduleCheck();
    });
    $("btn-hint").addEventListener("click", showHints);
    $("btn-sort").addEventListener("click", function () {
      bySuit = !bySuit;
      this.setAttribute("aria-pressed", String(bySuit));
      this.textContent = bySuit ? T.groupByRank : T.groupBySuit;
      drawHand();
    });
    var auto = $("auto-pass");
    auto.checked = window.localStorage && localStorage.getItem("luzi.autopass") === "1";
    auto.addEventListener("change", function () {
      if (window.localStorage) localStorage.setItem("luzi.autopass", auto.checked ? "1" : "0");
      maybeAutoPass();
    });
    $("btn-leave").addEventListener("click", function () {
      var d = deal();
      var out = d && d.phase !== "over" && d.finish && d.finish.indexOf(mySeat) >= 0;
      var inDeal = d && d.phase !== "over";
      // the game's words when the server cannot be asked (its penalties)
      var fallback = (out ? T.leaveConfirmOut : inDeal ? T.leaveConfirm : T.leaveConfirmBetween) || "";
      // the game says what leaving costs now (its own escape and leaving rules, with figures)
      fetch(config.leaveUrl, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : {}; })
        .catch(function () { return {}; })
        .then(function (terms) { if (window.confirm(terms.text || fallback)) leave(); });
    });
  }

  function leave() {
    post(config.leaveUrl).then(function (r) {
      if (r.status !== 200) { setMessage(r.data.detail || T.serverError, "bad"); return; }
      if (r.data.leave === "noted") {  // out of this deal: gone from the table until the next
        setMessage(T.leaveNoted, "ok");
        if (socket) { socket.onclose = null; socket.close(); }
        stopPolling();
        setTimeout(function () { location.href = config.mePath; }, 1500);
        return;
      }
      render(r.data);
    });
  }

  // what table_result.js (the result screen, the deal history) reads of this page
  window.LuziTable = {
    T: T,
    config: config,
    state: function () { return state; },
    fmt: fmt,
    seatName: seatName,
    playerName: playerName,
    sideName: sideName,
    winnerName: winnerName,
    resultText: resultText,
    pointsTable: pointsTable,
    matchEndText: matchEndText,
    escapedBySystem: escapedBySystem,
  };

  wire();
  render(config.state);
  setInterval(tickCountdowns, 250);
  document.addEventListener("visibilitychange", reconnectNow);
  window.addEventListener("online", reconnectNow);
  window.addEventListener("pageshow", function (event) { if (event.persisted) reconnectNow(); });
  connect();
})();

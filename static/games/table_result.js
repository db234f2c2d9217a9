/* The table page's result screen and deal history, for every game.
 *
 * Kept apart from table.js: it draws from the state table.js has drawn (the "luzi:state" event,
 * window.LuziTable for the words and helpers). When a deal ends, a screen over the table says who
 * won, the deal's points per player, the match's points and the game's figures (and, at the end
 * of the match, its result and why it ended); it stays until the player taps "Continue", even
 * while the next deal is dealt. The history lists every ended deal with its points per player,
 * deals numbered as people count them (a deal dealt again after nobody bid keeps its place).
 */
(function () {
  "use strict";

  var L = window.LuziTable;
  var screen = document.getElementById("deal-over");
  var history = document.getElementById("progress");
  if (!L || !history) return;
  var T = L.T;
  var config = L.config;
  var seated = config.seat !== null && config.seat !== undefined;
  var baseline = null; // the last ended deal already over when the page opened (not shown again)
  var shownKey = "";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function seenKey(state) { return "luzi.result." + config.table + "." + state.match.id; }
  function seen(state) {
    try { return Number(window.localStorage.getItem(seenKey(state)) || 0); } catch (e) { return 0; }
  }
  function markSeen(state, number) {
    try { window.localStorage.setItem(seenKey(state), String(number)); } catch (e) { /* private mode */ }
  }

  function figuresTable(state) {
    // the game's own figures of the match (大怪路子's levels, 小路子's silver, 斗地主's rating...)
    var figures = (state.match && state.match.figures) || {};
    var names = T.figureNames || {};
    var keys = Object.keys(figures).filter(function (k) { return names[k]; });
    if (!keys.length) return null;
    var table = el("table", "points figures");
    keys.forEach(function (key) {
      var row = el("tr");
      row.appendChild(el("th", "", names[key]));
      var by = figures[key];
      var cell = el("td");
      cell.textContent = Object.keys(by).map(function (holder) {
        var who = /^\d+$/.test(holder) ? L.seatName(Number(holder)) : L.sideName(holder);
        return who + " " + by[holder];
      }).join(" · ");
      row.appendChild(cell);
      table.appendChild(row);
    });
    return table;
  }

  function drawHistory(state) {
    var m = state.match;
    history.innerHTML = "";
    if (!m) return;
    history.appendChild(el("h2", "", T.history));
    var rows = m.history || [];
    if (m.ladder && m.ladder.length > 1) {
      history.appendChild(el("p", "meta", T.ladder + " " + m.ladder.map(function (s) { return s.A + ":" + s.B; }).join(" → ")));
    }
    if (!rows.length) return;
    var table = el("table", "points history");
    table.id = "history-table";
    var head = el("tr");
    head.appendChild(el("th", "", T.historyDeal));
    state.seats.forEach(function (s) { head.appendChild(el("th", "", L.playerName(s))); });
    table.appendChild(head);
    rows.forEach(function (h) {
      var row = el("tr", "history-deal");
      row.dataset.deal = h.number;
      row.appendChild(el("th", "", fmtDeal(h)));
      state.seats.forEach(function (s) { row.appendChild(el("td", "", signed(h.points[s.seat]))); });
      table.appendChild(row);
      var words = el("tr", "history-words");
      var cell = el("td", "", L.resultText(h.result));
      cell.colSpan = state.seats.length + 1;
      words.appendChild(cell);
      table.appendChild(words);
    });
    var total = el("tr", "history-total");
    total.appendChild(el("th", "", T.matchPoints));
    state.seats.forEach(function (s) { total.appendChild(el("td", "", signed(m.points[s.seat]))); });
    table.appendChild(total);
    history.appendChild(table);
  }

  function signed(p) {
    if (p === undefined || p === null) return "—";
    return p > 0 ? "+" + p : String(p);
  }

  function fmtDeal(h) {
    return L.fmt(T.dealNumber, { n: h.ordinal || h.number });
  }

  function drawScreen(state) {
    if (!screen || !seated) return;
    var m = state.match;
    var rows = (m && m.history) || [];
    var last = rows.length ? rows[rows.length - 1] : null;
    var over = m && m.status !== "playing";
    if (baseline === null) {
      // a result already on the table when the page opened is shown only if it is the table's
      // last word (between deals, or the match's end); older ones are in the history
      var current = state.deal && state.deal.phase === "over";
      baseline = last && !(current || over) ? last.number : 0;
    }
    if (!last || last.number <= Math.max(baseline, seen(state))) {
      screen.hidden = true;
      shownKey = "";
      return;
    }
    var key = [m.id, last.number, m.status].join(":");
    if (key === shownKey && !screen.hidden) return;
    shownKey = key;
    screen.innerHTML = "";
    var box = el("div", "deal-over-box");
    var body = el("div", "deal-over-body");
    var title = el("h2", "", L.fmt(T.dealResult, { n: last.ordinal || last.number }));
    title.id = "deal-over-title";
    body.appendChild(title);
    var words = el("p", "deal-over-words", L.resultText(last.result));
    words.id = "deal-over-words";
    body.appendChild(words);
    body.appendChild(el("h3", "", T.dealPoints));
    var points = L.pointsTable(last.points);
    points.id = "deal-over-points";
    body.appendChild(points);
    body.appendChild(el("h3", "", over ? T.finalPoints : T.matchPoints));
    var totals = L.pointsTable(m.points);
    totals.id = "deal-over-totals";
    body.appendChild(totals);
    var figures = figuresTable(state);
    if (figures) {
      body.appendChild(el("h3", "", T.figuresTitle));
      figures.id = "deal-over-figures";
      body.appendChild(figures);
    }
    if (over) {
      var end = el("p", "deal-over-end", L.matchEndText());
      end.id = "deal-over-match";
      body.appendChild(end);
    }
    box.appendChild(body);
    var go = el("button", "primary", T["continue"]);
    go.type = "button";
    go.id = "btn-continue";
    go.title = T.continueTitle;
    go.addEventListener("click", function () {
      markSeen(state, last.number);
      screen.hidden = true;
      shownKey = "";
    });
    box.appendChild(go);
    screen.appendChild(box);
    screen.hidden = false;
  }

  function draw(state) {
    if (!state) return;
    drawHistory(state);
    drawScreen(L.state() || state);
  }

  document.addEventListener("luzi:state", function (event) { draw(event.detail); });
  draw(L.state());
})();

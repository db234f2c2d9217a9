/* Luzi replay viewer: a finished deal step by step, every hand face up.
 *
 * No rule of the game lives here: the server sends every step as the engine replayed it (the
 * action, the deal's public view after it, every seat's hand, other cards such as the kitty).
 * This file draws a step and moves between steps: buttons, the slider, arrow keys, Home/End,
 * space for the automatic replay; the step is kept in the URL (?step=N) so a link opens there.
 */
(function () {
  "use strict";

  var $ = function (id) { return document.getElementById(id); };
  var config = JSON.parse($("replay-config").textContent);
  var T = JSON.parse($("replay-strings").textContent);
  // what the replay shows of its game comes from the game's package, as data (describe.js)
  var UI = config.ui || {};
  var steps = config.steps;
  var last = steps.length - 1;
  var step = 0;
  var timer = null;

  function view() { return steps[step].view; }
  var C = window.LuziCards(T, function () { return UI.levelKey ? view()[UI.levelKey] : null; });

  function fmt(template, values) {
    // a count's words come in plural forms ({one, other}), chosen by the count n
    if (template && typeof template === "object") template = Number(values.n) === 1 ? template.one : template.other;
    return String(template).replace(/%\((\w+)\)s/g, function (_m, key) {
      return values[key] === undefined ? "" : String(values[key]);
    });
  }
  function seatName(s) { return config.seats[s] ? config.seats[s].player : "#" + (s + 1); }
  function sideName(side) { return side === "A" ? T.sideA : T.sideB; }
  function signed(p) { return p > 0 ? "+" + p : String(p); }
  var D = window.LuziDescribe(T, UI, {
    fmt: fmt, seatName: seatName, sideName: sideName, cardsRow: C.cardsRow, pointsTable: pointsTable,
    cardsText: function (cards) { return cards; },
  });
  function ctx(extra) {
    // what the game's description reads: the step's view, the other cards (x), a seat...
    var c = { v: view(), x: steps[step].extra || {} };
    Object.keys(extra || {}).forEach(function (k) { c[k] = extra[k]; });
    return c;
  }

  // --- words for an action, a result ----------------------------------------------------------
  function passChosen(a, before) {
    // a pass that is a decision of its phase (the game's "passChoice": 斗地主's 不叫 in the bidding)
    return a.kind === "pass" && !!UI.passChoice && !!before && before.phase === UI.passChoice;
  }

  function choiceText(a, before) {
    // a decision in the game's words for its kind ("buttons"), else the kind's name
    var button = (UI.buttons || {})[a.kind];
    if (button && (a.kind !== "pass" || passChosen(a, before))) return D.text(button, ctx({ a: a }));
    return T.kinds[a.kind] || a.kind;
  }

  function actionLine(i) {
    // [text, cards or ""] for step i
    var a = steps[i].action;
    if (!a) return [T.dealt, ""];
    var before = steps[i - 1].view;
    var name = seatName(a.seat);
    var text;
    var cards = "";
    if (a.kind === "escape") text = fmt(T.escapes, { name: name });
    else if (a.kind === "play") { text = fmt(T.played, { name: name }); cards = a.cards || ""; }
    else if (a.kind === "return") { text = fmt(T.returns, { name: name }); cards = a.cards || ""; }
    else if (a.kind === "pass" && !passChosen(a, before)) text = fmt(T.passes, { name: name });
    else {
      text = fmt(T.chooses, { name: name, choice: choiceText(a, before) });
      if (a.cards) cards = a.cards;
    }
    if (a.system) text += " " + T.system;
    return [text, cards];
  }

  function resultText(r) {
    // a deal's result in the game's words ("replayResult")
    if (!r) return "";
    return D.text(UI.replayResult, ctx({ r: r }));
  }

  // --- drawing ----------------------------------------------------------------------------------
  function tag(parent, text, cls) {
    var t = document.createElement("span");
    t.className = "tag" + (cls ? " " + cls : "");
    t.textContent = text;
    parent.appendChild(t);
  }

  function seatTags(head, s, v) {
    var seat = config.seats[s];
    // the seat's side and role in the deal, as the game shows them ("replayRoles")
    D.entries(UI.replayRoles, ctx({ seat: s, info: seat })).forEach(function (found) {
      var e = found.entry;
      tag(head, D.text(e.text, found.ctx), e.cls ? D.text(e.cls, found.ctx) : undefined);
    });
    var place = (v.finish || []).indexOf(s);
    if (place >= 0) tag(head, fmt(T.finished, { n: place + 1 }), "finished");
    if (seat.bot) tag(head, T.bot);
  }

  function trickPlay(s, v) {
    var found = null;
    ((v.trick && v.trick.actions) || []).forEach(function (a) { if (a.seat === s) found = a; });
    return found;
  }

  function drawSeats() {
    var v = view();
    var acted = steps[step].action ? steps[step].action.seat : null;
    document.querySelectorAll("#seats .rseat").forEach(function (box) {
      var s = Number(box.dataset.seat);
      box.innerHTML = "";
      box.className = "rseat" + (UI.replaySides ? " side-" + config.seats[s].side : "") +
        (acted === s ? " acted" : "") + ((v.awaiting || []).indexOf(s) >= 0 ? " turn" : "");
      var head = document.createElement("div");
      head.className = "seat-head";
      var strong = document.createElement("strong");
      strong.textContent = seatName(s);
      head.appendChild(strong);
      var info = document.createElement("span");
      info.className = "seat-info";
      info.textContent = fmt(T.seatNo, { n: s + 1 }) + " · " + fmt(T.cardsLeft, { n: (steps[step].hands[s] || "").split(" ").filter(Boolean).length });
      head.appendChild(info);
      seatTags(head, s, v);
      box.appendChild(head);
      var play = trickPlay(s, v);
      var line = document.createElement("div");
      line.className = "seat-play";
      if (play && play.kind === "play") line.appendChild(C.cardsRow(play.cards));
      else if (play && play.kind === "pass") { line.textContent = T.passed; line.className += " passed"; }
      box.appendChild(line);
      var hand = C.cardsRow(steps[step].hands[s]);
      hand.className += " rhand";
      box.appendChild(hand);
    });
  }

  function factRow(box, label, content, id) {
    var row = document.createElement("div");
    row.className = "fact";
    if (id) row.id = id;
    var l = document.createElement("span");
    l.className = "fact-label";
    l.textContent = label;
    row.appendChild(l);
    if (typeof content === "string") {
      var t = document.createElement("span");
      t.textContent = content;
      row.appendChild(t);
    } else if (content) row.appendChild(content);
    box.appendChild(row);
  }

  function drawFacts() {
    // the deal's facts as the game lists them ("replayFacts": 级牌 and 进贡, bids, 底牌, the mode...)
    var box = $("facts");
    box.innerHTML = "";
    D.entries(UI.replayFacts, ctx()).forEach(function (found) {
      var e = found.entry;
      var content = D.content(e.value, found.ctx);
      if (e.skipEmpty && !content) return;
      factRow(box, D.text(e.label, found.ctx), content, e.id || null);
    });
    box.hidden = !box.childNodes.length;
  }

  function pointsTable(points) {
    var table = document.createElement("table");
    table.className = "points";
    var head = document.createElement("tr");
    var row = document.createElement("tr");
    config.seats.forEach(function (s) {
      var th = document.createElement("th");
      th.textContent = s.player;
      head.appendChild(th);
      var td = document.createElement("td");
      var p = points[String(s.seat)] !== undefined ? points[String(s.seat)] : points[s.seat];
      td.textContent = p === undefined ? "—" : signed(p);
      row.appendChild(td);
    });
    table.appendChild(head);
    table.appendChild(row);
    return table;
  }

  function drawResult() {
    var box = $("result");
    var r = view().result;
    box.innerHTML = "";
    box.hidden = !r;
    if (!r) return;
    var h = document.createElement("h2");
    h.id = "replay-result";
    h.textContent = fmt(T.dealResult, { n: config.deal.number });
    box.appendChild(h);
    var p = document.createElement("p");
    p.textContent = resultText(r);
    box.appendChild(p);
    resultBlocks(box, UI.resultBefore, ctx({ r: r }));
    box.appendChild(pointsTable(r.points || config.deal.points || []));
    resultBlocks(box, UI.resultAfter, ctx({ r: r }));
  }

  function resultBlocks(box, list, c) {
    // paragraphs and points tables the game adds to a deal's result
    D.entries(list, c).forEach(function (found) {
      var e = found.entry;
      if (e.p !== undefined) {
        var p = document.createElement("p");
        p.textContent = D.text(e.p, found.ctx);
        box.appendChild(p);
      }
      if (e.points !== undefined) box.appendChild(pointsTable(D.value({ get: e.points }, found.ctx) || {}));
    });
  }

  function drawMoves() {
    var list = $("moves");
    list.innerHTML = "";
    steps.forEach(function (_s, i) {
      var li = document.createElement("li");
      var b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.dataset.step = i;
      var line = actionLine(i);
      b.appendChild(document.createTextNode(line[0] + " "));
      if (line[1]) b.appendChild(C.cardsRow(line[1]));
      b.addEventListener("click", function () { go(i); });
      li.appendChild(b);
      list.appendChild(li);
    });
  }

  function stepUrl(n) {
    return config.replayPath + (n ? "?step=" + n : "");
  }

  function render() {
    $("step-count").textContent = fmt(T.stepOf, { n: step, total: last });
    $("step-slider").value = String(step);
    var line = actionLine(step);
    var text = $("step-text");
    text.innerHTML = "";
    text.appendChild(document.createTextNode(line[0] + " "));
    if (line[1]) text.appendChild(C.cardsRow(line[1]));
    var v = view();
    var meta = [fmt(T.dealOf, { n: config.deal.number, total: config.match.deals_per_match })];
    if (UI.replayHead) meta.push(D.text(UI.replayHead, ctx()));
    $("deal-meta").textContent = meta.join(" · ");
    drawSeats();
    drawFacts();
    drawResult();
    document.querySelectorAll("#moves .move").forEach(function (b) {
      var on = Number(b.dataset.step) === step;
      b.classList.toggle("current", on);
      if (on) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
    $("btn-first").disabled = $("btn-prev").disabled = step === 0;
    $("btn-next").disabled = $("btn-last").disabled = step === last;
    $("step-link").href = stepUrl(step);
  }

  function go(n) {
    var next = Math.max(0, Math.min(last, Number(n) || 0));
    step = next;
    render();
    if (window.history && history.replaceState) {
      history.replaceState(null, "", stepUrl(step) + window.location.hash);
    }
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    $("btn-play").setAttribute("aria-pressed", "false");
  }

  function toggle() {
    if (timer) { stop(); return; }
    if (step === last) go(0);
    $("btn-play").setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      if (step >= last) { stop(); return; }
      go(step + 1);
    }, 900);
  }

  function wire() {
    $("btn-first").addEventListener("click", function () { stop(); go(0); });
    $("btn-prev").addEventListener("click", function () { stop(); go(step - 1); });
    $("btn-next").addEventListener("click", function () { stop(); go(step + 1); });
    $("btn-last").addEventListener("click", function () { stop(); go(last); });
    $("btn-play").addEventListener("click", toggle);
    $("step-slider").addEventListener("input", function (e) { stop(); go(e.target.value); });
    document.addEventListener("keydown", function (e) {
      var t = e.target;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      if (e.key === "ArrowRight") { stop(); go(step + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { stop(); go(step - 1); e.preventDefault(); }
      else if (e.key === "Home") { stop(); go(0); e.preventDefault(); }
      else if (e.key === "End") { stop(); go(last); e.preventDefault(); }
      else if (e.key === " " && (!t || t.tagName !== "BUTTON")) { toggle(); e.preventDefault(); }
    });
    var share = $("btn-share");
    if (share) {
      share.addEventListener("click", function () {
        var input = $("share-url");
        input.select();
        var done = function () { share.textContent = T.copied; };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(input.value).then(done, function () {
            if (document.execCommand("copy")) done();
          });
        } else if (document.execCommand("copy")) done();
      });
    }
  }

  var asked = new URLSearchParams(window.location.search).get("step");
  drawMoves();
  wire();
  step = Math.max(0, Math.min(last, parseInt(asked, 10) || 0));
  render();
})();

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
  var game = config.game;
  var steps = config.steps;
  var last = steps.length - 1;
  var step = 0;
  var timer = null;

  function view() { return steps[step].view; }
  var C = window.LuziCards(T, function () { return game === "daguai" ? view().level : null; });

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

  // --- words for an action, a result ----------------------------------------------------------
  function choiceText(a, before) {
    if (a.kind === "bid") return fmt(T.bidOf, { n: a.value });
    if (a.kind === "open" || a.kind === "fight") return T.kinds[a.kind + (a.value ? ":yes" : ":no")];
    if (a.kind === "report" && !a.cards) return T.kinds["report:none"];
    if (a.kind === "pass" && game === "shanghai_doudizhu" && before && before.phase === "bid") return T.noBid;
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
    else if (a.kind === "pass" && !(game === "shanghai_doudizhu" && before.phase === "bid")) text = fmt(T.passes, { name: name });
    else {
      text = fmt(T.chooses, { name: name, choice: choiceText(a, before) });
      if (a.kind === "report" && a.cards) cards = a.cards;
    }
    if (a.system) text += " " + T.system;
    return [text, cards];
  }

  function ddzFactors(f) {
    var bits = [];
    if (f.bid) bits.push(fmt(T.bidOf, { n: f.bid }));
    if (f.huangfan) bits.push(fmt(T.huangfan, { n: f.huangfan }));
    if (f.marked_joker) bits.push(T.markedJoker);
    if (f.head_bid) bits.push(T.headBid);
    if (f.open_hand) bits.push(T.openHand);
    if (f.reported) bits.push(fmt(T.reported, { n: f.reported }));
    return bits.length ? bits.join(" · ") : T.noFactor;
  }

  function resultText(r) {
    if (!r) return "";
    if (game === "shanghai_doudizhu") {
      if (r.outcome === "all_pass") return T.allPass;
      if (r.outcome === "escape") return fmt(T.escapeDuring, { name: seatName(r.escaper) });
      var who = r.winner === "landlord" ? fmt(T.landlordWon, { name: seatName(r.landlord) }) : T.farmersWon;
      return who + " " + (r.outcome === "report_no_play" ? T.kinds["fight:no"] + " · " : "") + ddzFactors(r.factors || {});
    }
    if (game === "xiaoluzi") {
      if (r.kind === "escape") return fmt(T.escapeDuring, { name: seatName(r.seat) });
      var text = (T.modes[r.mode] || r.mode || "") + " · " + T.finishOrder + " " + (r.finish || []).map(seatName).join(" → ");
      if (r.slam) text += " · " + T.slam;
      return text;
    }
    if (game !== "daguai") return r.outcome || "";
    if (r.outcome === "escape") return fmt(T.escapeDuring, { name: seatName(r.seat) });
    if (r.outcome === "draw") return T.draw;
    var line = fmt(T.won, { side: sideName(r.winner) }) + " " +
      fmt(T.payers, { names: (r.payers || []).map(seatName).join(", ") });
    if (r.levels_before && r.levels) {
      line += " " + fmt(T.levelChange, { a0: r.levels_before.A, b0: r.levels_before.B, a: r.levels.A, b: r.levels.B });
    }
    if (r.passed_a) line += " " + T.passedA;
    return line;
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
    if (game === "daguai") {
      tag(head, sideName(seat.side), "side");
      if (v.dealer === s) tag(head, T.dealer, "dealer");
    }
    if (game === "shanghai_doudizhu" && v.landlord !== null && v.landlord !== undefined) {
      tag(head, v.landlord === s ? T.landlord : T.farmer, v.landlord === s ? "role landlord" : "role");
    }
    if (game === "xiaoluzi") {
      if (v.holder_7h === s) tag(head, T.holder7h);
      if (v.declarer === s) tag(head, T.declarer, "role");
      if (v.counter === s) tag(head, T.counter, "role");
      if ((v.bystanders || []).indexOf(s) >= 0) tag(head, T.bystander);
    }
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
      box.className = "rseat" + (game === "daguai" ? " side-" + config.seats[s].side : "") +
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
    var box = $("facts");
    var v = view();
    var extra = steps[step].extra || {};
    box.innerHTML = "";
    if (game === "daguai") {
      factRow(box, T.levelRank.replace(/\s*%\(rank\)s/, ""), String(v.level), "fact-level");
      (v.tributes || []).forEach(function (t) {
        var span = document.createElement("span");
        span.appendChild(document.createTextNode(fmt(T.tributeLine, { payer: seatName(t.payer), receiver: seatName(t.receiver) }) + " "));
        if (t.card) span.appendChild(C.cardsRow(t.card));
        if (t["return"]) {
          span.appendChild(document.createTextNode(" · " + T.returned + " "));
          span.appendChild(C.cardsRow(t["return"]));
        }
        factRow(box, T.tribute, span, null);
      });
    }
    if (game === "shanghai_doudizhu") {
      if (v.marked) {
        var marked = document.createElement("span");
        marked.appendChild(C.cardsRow(v.marked.card));
        marked.appendChild(document.createTextNode(" " + fmt(T.heldBy, { name: seatName(v.marked.seat) })));
        factRow(box, T.marked, marked);
      }
      factRow(box, T.bids, (v.bids || []).map(function (b) {
        return seatName(b.seat) + " " + (b.bid ? fmt(T.bidOf, { n: b.bid }) : T.noBid);
      }).join(" → ") || "—", "fact-bids");
      if (v.landlord !== null && v.landlord !== undefined) {
        factRow(box, T.landlord, seatName(v.landlord) + " · " + fmt(T.bidOf, { n: v.bid }) +
          (v.head_bid ? " · " + T.headBid : "") + (v.open_hand ? " · " + T.openHand : ""), "fact-landlord");
      }
      if (extra.kitty) {
        var kitty = C.cardsRow(extra.kitty);
        if (v.landlord !== null && v.landlord !== undefined && v.phase !== "bid") {
          var k = document.createElement("span");
          k.appendChild(kitty);
          k.appendChild(document.createTextNode(" " + T.kittyTaken));
          kitty = k;
        }
        factRow(box, T.kitty, kitty, "fact-kitty");
      }
      if (v.declared && v.declared.length) {
        var sets = document.createElement("span");
        v.declared.forEach(function (set) { sets.appendChild(C.cardsRow(set)); sets.appendChild(document.createTextNode(" ")); });
        if (v.fight === true || v.fight === false) sets.appendChild(document.createTextNode(T.kinds[v.fight ? "fight:yes" : "fight:no"]));
        factRow(box, T.reportSets, sets, "fact-report");
      }
    }
    if (game === "xiaoluzi") {
      factRow(box, T.answers, (v.answers || []).map(function (a) {
        var kind = a[0] === "declare" ? (a[2] ? "declare" : "no_declare") : (a[2] ? "counter" : "no_counter");
        return seatName(a[1]) + " " + T.kinds[kind];
      }).join(" → ") || "—", "fact-answers");
      if (v.mode) factRow(box, T.mode, T.modes[v.mode] || v.mode, "fact-mode");
    }
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
    if (game === "daguai" && view().finish && view().finish.length) {
      var f = document.createElement("p");
      f.textContent = T.finishOrder + " " + view().finish.map(seatName).join(" → ");
      box.appendChild(f);
    }
    box.appendChild(pointsTable(r.points || config.deal.points || []));
    if (game === "xiaoluzi" && r.silver) {
      var sv = document.createElement("p");
      sv.textContent = T.silver;
      box.appendChild(sv);
      box.appendChild(pointsTable(r.silver));
    }
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
    if (game === "daguai") meta.push(fmt(T.levelRank, { rank: v.level }) + " · " + T.dealer + " " + seatName(v.dealer));
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

/* The table page's links to the replays of its finished deals (/deals/<id>/replay/).
 *
 * Kept apart from table.js: it watches the result and progress sections that table.js draws and,
 * when they change (a deal ended), asks the server which deals of the match may be replayed
 * (GET /api/v1/tables/<id>/replays/: only deals whose hands are public) and lists them; at a
 * challenge's table it links to the leaderboard of the deal played again.
 */
(function () {
  "use strict";

  var box = document.getElementById("replays");
  var configEl = document.getElementById("table-config");
  if (!box || !configEl) return;
  var config = JSON.parse(configEl.textContent);
  var words = { title: box.dataset.title || "", deal: box.dataset.deal || "%(n)s", board: box.dataset.board || "" };
  var url = "/api/v1/tables/" + config.table + "/replays/";
  var shown = "";
  var pending = null;

  function draw(data) {
    var deals = (data && data.deals) || [];
    var key = deals.map(function (d) { return d.id; }).join(",");
    if (key === shown) return;
    shown = key;
    box.innerHTML = "";
    box.hidden = !deals.length;
    if (!deals.length) return;
    var h = document.createElement("h2");
    h.textContent = words.title || "";
    box.appendChild(h);
    var p = document.createElement("p");
    deals.forEach(function (d, i) {
      if (i) p.appendChild(document.createTextNode(" · "));
      var a = document.createElement("a");
      a.href = d.url;
      a.className = "replay-link";
      a.textContent = String(words.deal || "%(n)s").replace("%(n)s", d.number);
      p.appendChild(a);
    });
    box.appendChild(p);
    if (data.challenge) {
      var c = document.createElement("p");
      var link = document.createElement("a");
      link.href = data.challenge;
      link.id = "challenge-board";
      link.textContent = words.board || "";
      c.appendChild(link);
      box.appendChild(c);
    }
  }

  function refresh() {
    pending = null;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : {}; })
      .then(draw)
      .catch(function () {});
  }

  function soon() {
    if (pending) clearTimeout(pending);
    pending = setTimeout(refresh, 400);
  }

  var observer = new MutationObserver(soon);
  ["result", "progress"].forEach(function (id) {
    var el = document.getElementById(id);
    if (el) observer.observe(el, { childList: true, attributes: true, attributeFilter: ["hidden"] });
  });
  refresh();
})();

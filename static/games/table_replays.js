/* The table page's links to the replays of its finished deals (/deals/<id>/replay/).
 *
 * Kept apart from table.js: it watches the result and progress sections that table.js draws and,
 * when they change (a deal ended), asks the server which deals of the match may be replayed
 * (GET /api/v1/tables/<id>/replays/: only deals whose hands are public) and lists them.
 */
(function () {
  "use strict";

  var box = document.getElementById("replays");
  var configEl = document.getElementById("table-config");
  if (!box || !configEl) return;
  var config = JSON.parse(configEl.textContent);
  var words = { title: box.dataset.title || "", deal: box.dataset.deal || "%(n)s" };
  var url = "/api/v1/tables/" + config.table + "/replays/";
  var shown = "";
  var pending = null;

  function draw(deals) {
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
  }

  function refresh() {
    pending = null;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : []; })
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

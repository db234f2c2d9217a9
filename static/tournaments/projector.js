// Projector view: one slide at a time, and a slide whose table is taller than the screen pages
// through its rows (a few rows at a time) instead of being cut off. After the last page of the
// last slide the page reloads, so tables and standings stay current. No library, no CDN.
(function () {
  "use strict";
  var script = document.currentScript;
  var seconds = parseInt((script && script.dataset.seconds) || "15", 10);
  var slides = Array.prototype.slice.call(document.querySelectorAll("[data-slide]"));
  if (slides.length === 0) { return; }

  function show(slide, rows) {
    slides.forEach(function (s) { s.hidden = s !== slide; });
    Array.prototype.forEach.call(slide.querySelectorAll("tbody tr"), function (row) {
      row.hidden = rows !== null && rows.indexOf(row) < 0;
    });
  }

  // The pages of a slide: its rows split so that each page fits under the slide's heading.
  function pagesOf(slide) {
    show(slide, null);
    var rows = Array.prototype.slice.call(slide.querySelectorAll("tbody tr"));
    if (rows.length === 0) { return [{ slide: slide, rows: null }]; }
    var table = rows[0].closest("table");
    var below = slide.getBoundingClientRect().bottom - table.getBoundingClientRect().bottom;
    var room = window.innerHeight - rows[0].getBoundingClientRect().top - Math.max(below, 0) - 8;
    var pages = [];
    var page = [];
    var used = 0;
    rows.forEach(function (row) {
      var height = row.getBoundingClientRect().height;
      if (page.length > 0 && used + height > room) { pages.push(page); page = []; used = 0; }
      page.push(row);
      used += height;
    });
    if (page.length > 0) { pages.push(page); }
    return pages.map(function (p) { return { slide: slide, rows: p }; });
  }

  var pages = [];
  slides.forEach(function (slide) { pages = pages.concat(pagesOf(slide)); });
  var counts = {};
  pages.forEach(function (p) {
    var i = slides.indexOf(p.slide);
    counts[i] = (counts[i] || 0) + 1;
    p.number = counts[i];
  });
  var current = 0;
  function render() {
    var p = pages[current];
    show(p.slide, p.rows);
    var label = p.slide.querySelector("[data-page]");
    if (label) {
      var total = counts[slides.indexOf(p.slide)];
      label.textContent = total > 1 ? p.number + " / " + total : "";
    }
    document.body.dataset.page = String(current);
  }
  render();
  setInterval(function () {
    current += 1;
    if (current >= pages.length) { window.location.reload(); return; }
    render();
  }, seconds * 1000);
})();

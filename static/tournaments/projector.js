// Projector view: show one slide at a time, cycling; reload the page after each full cycle so that
// tables and standings stay current. No library, no CDN.
(function () {
  "use strict";
  var script = document.currentScript;
  var seconds = parseInt((script && script.dataset.seconds) || "15", 10);
  var slides = Array.prototype.slice.call(document.querySelectorAll("[data-slide]"));
  if (slides.length === 0) { return; }
  var current = 0;
  setInterval(function () {
    slides[current].hidden = true;
    current += 1;
    if (current >= slides.length) { window.location.reload(); return; }
    slides[current].hidden = false;
  }, seconds * 1000);
})();

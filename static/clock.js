// A round's clock (templates/_round_clock.html): counts down each second from the seconds left the
// server sent (measured against this browser's own clock, so a wrong clock on a phone does not
// matter), and reads the clock's JSON again when the table's socket says it changed (the event
// "luzi:clock", sent by games/table.js), every few seconds (data-poll), when the page is shown
// again, and when the count reaches zero. The server alone says what the clock is.
(function () {
  "use strict";
  if (window.luziClock) return; // the script may be included more than once
  window.luziClock = true;

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function shown(seconds) {
    seconds = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return h ? h + ":" + two(m) + ":" + two(s) : two(m) + ":" + two(s);
  }

  function Clock(el) {
    this.el = el;
    this.label = el.querySelector(".round-clock-label");
    this.time = el.querySelector(".round-clock-time");
    this.url = el.getAttribute("data-url");
    this.poll = Math.max(5, parseInt(el.getAttribute("data-poll"), 10) || 15) * 1000;
    this.set(el.getAttribute("data-state"), el.getAttribute("data-left"));
  }

  Clock.prototype.set = function (state, left) {
    this.state = state || "none";
    var seconds = left === null || left === "" || left === undefined ? null : Number(left);
    this.seconds = seconds;
    this.until = seconds === null ? null : Date.now() + seconds * 1000;
    this.asked = false;
    this.el.setAttribute("data-state", this.state);
    this.draw();
  };

  Clock.prototype.left = function () {
    if (this.until === null) return null;
    if (this.state !== "running") return this.seconds;
    return Math.max(0, (this.until - Date.now()) / 1000);
  };

  Clock.prototype.draw = function () {
    var left = this.left();
    var state = this.state;
    if (state === "running" && left !== null && left <= 0) {
      state = "over";
      if (!this.asked) { this.asked = true; setTimeout(this.read.bind(this), 1500); }
    }
    this.el.setAttribute("data-shown", state);
    this.el.hidden = state === "none";
    this.label.textContent = this.el.getAttribute("data-word-" + state) || "";
    this.time.textContent = left === null || state === "over" ? (state === "over" ? "00:00" : "") : shown(left);
  };

  Clock.prototype.read = function () {
    var clock = this;
    if (!clock.url || !window.fetch) return;
    fetch(clock.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) clock.set(data.state, data.seconds_left); })
      .catch(function () { /* offline: keep counting; the next read corrects it */ });
  };

  function start() {
    var clocks = Array.prototype.map.call(document.querySelectorAll("[data-round-clock]"), function (el) {
      return new Clock(el);
    });
    if (!clocks.length) return;
    setInterval(function () { clocks.forEach(function (c) { c.draw(); }); }, 1000);
    clocks.forEach(function (c) { setInterval(c.read.bind(c), c.poll); });
    document.addEventListener("luzi:clock", function () { clocks.forEach(function (c) { c.read(); }); });
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) clocks.forEach(function (c) { c.read(); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

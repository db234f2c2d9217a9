// The admin's event form shows the chosen game's rule options only: on the add page, choosing
// another game reloads the page for it (what was changed goes along as the initial values); on a
// change page, the options shown (the old game's) are hidden until the event is saved.
(function () {
  "use strict";
  // Only what was changed goes along: a field left as the page gave it takes the new game's
  // initial value (deals per match follows the game).
  function untouched(el) {
    if (el.tagName === "SELECT") {
      return Array.prototype.every.call(el.options, function (o) {
        return o.selected === o.defaultSelected;
      });
    }
    if (el.type === "checkbox" || el.type === "radio") return el.checked === el.defaultChecked;
    return el.value === el.defaultValue;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var game = document.getElementById("id_game");
    var shown = document.querySelector("input[name=options_game]");
    if (!game || !shown) return;
    game.addEventListener("change", function () {
      var form = game.form;
      if (/\/add\/$/.test(window.location.pathname)) {
        var params = new URLSearchParams();
        Array.prototype.forEach.call(form.elements, function (el) {
          if (!el.name || el.name.indexOf("-") >= 0 || el.name.indexOf("option_") === 0) return;
          if (el.type === "hidden" || el.type === "file" || el.type === "submit") return;
          if ((el.type === "checkbox" || el.type === "radio") && !el.checked) return;
          if (el.name === "game" || !el.value || untouched(el)) return;
          params.set(el.name, el.value);
        });
        params.set("game", game.value);
        window.location.search = params.toString();
        return;
      }
      var other = game.value !== shown.value;
      document.querySelectorAll("[class*='field-option_']").forEach(function (row) {
        row.hidden = other;
      });
    });
  });
})();

// Every page's forms: a form that asks (data-confirm) is sent only once the person agrees, and a
// form that was sent says it is working and is not sent twice while the server answers (confirming
// a result or completing a round can take a second or more).
(function () {
  "use strict";
  var working = document.body.getAttribute("data-working") || "…";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || event.defaultPrevented) return;
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      return;
    }
    if ((form.method || "").toLowerCase() !== "post" || form.target) return;
    if (form.getAttribute("data-busy") === "1") {
      event.preventDefault(); // already on its way
      return;
    }
    form.setAttribute("data-busy", "1");
    form.setAttribute("aria-busy", "true");
    var button = event.submitter;
    // after this turn of the event loop, so that the button's own name and value are still sent
    window.setTimeout(function () {
      if (button && button.tagName === "BUTTON") {
        button.setAttribute("data-label", button.textContent);
        button.textContent = working;
      }
      if (button) button.disabled = true;
    }, 0);
  }, false);
  // a page brought back from the browser's cache (the back button) is ready again
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-busy]").forEach(function (form) {
      form.removeAttribute("data-busy");
      form.removeAttribute("aria-busy");
      form.querySelectorAll("[data-label]").forEach(function (button) {
        button.textContent = button.getAttribute("data-label");
        button.removeAttribute("data-label");
        button.disabled = false;
      });
    });
  });
})();

// "Print" on the printable sheets: a link or button marked data-print prints the page (a script
// file, not an inline handler or javascript: link, which the Content-Security-Policy refuses).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const element of document.querySelectorAll("[data-print]")) {
    element.addEventListener("click", (event) => {
      event.preventDefault();
      window.print();
    });
  }
});

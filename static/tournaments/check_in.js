// The organizer's check-in list: typing in the search box keeps the rows whose name (or a
// member's) holds what was typed (a script file: the Content-Security-Policy refuses inline ones).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const box = document.querySelector("[data-check-in-filter]");
  if (!box) return;
  const rows = document.querySelectorAll(".check-in-list > li[data-name]");
  box.addEventListener("input", () => {
    const wanted = box.value.trim().toLowerCase();
    for (const row of rows) {
      row.hidden = wanted !== "" && !row.dataset.name.includes(wanted);
    }
  });
});

// The dashboard's list of tables scored by their players (tournaments/rounds/dashboard.py): read
// again every few seconds (a GET of the dashboard itself, which writes nothing) so that the
// referees see each table's progress and a disputed table as it happens.
"use strict";
(() => {
  const section = document.getElementById("sheet-progress");
  if (!section) return;
  const seconds = Number(section.dataset.refresh || "15");
  const refresh = async () => {
    try {
      const response = await fetch(window.location.href, { credentials: "same-origin" });
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.getElementById("sheet-progress");
      if (fresh) section.replaceChildren(...fresh.childNodes);
    } catch (error) {
      // no connection: the list stays as it was
    }
  };
  window.setInterval(refresh, seconds * 1000);
})();

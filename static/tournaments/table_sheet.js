// A table's score page on a player's phone (tournaments/results/pages.py). Every entry is kept
// first in this phone's localStorage (the outbox), with its own UUID, then sent; it leaves the
// outbox when the server accepted it (201, or 200 for a resend it already had) or refused it
// (the message is shown). Without a connection the outbox waits and is sent when the connection
// returns. The page and its files are cached by the service worker (/sw.js).
"use strict";
(() => {
  const configNode = document.getElementById("sheet-config");
  if (!configNode) return;
  const config = JSON.parse(configNode.textContent);
  const words = config.words;
  const outboxKey = `luzi-sheet-outbox-${config.table}`;
  const stateKey = `luzi-sheet-state-${config.table}`;
  const noticesKey = `luzi-sheet-notices-${config.table}`;
  const form = document.getElementById("deal-form");
  let state = config.state;
  let sending = false;

  const fill = (text, values) =>
    text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key] ?? ""));
  const read = (key, fallback) => {
    try {
      const value = JSON.parse(localStorage.getItem(key) || "null");
      return value === null ? fallback : value;
    } catch (error) {
      return fallback;
    }
  };
  const write = (key, value) => localStorage.setItem(key, JSON.stringify(value));
  const uuid = () => {
    if (crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
  const csrf = () => {
    const found = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
    if (found) return decodeURIComponent(found.split("=")[1]);
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  };
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const nameOf = (seat) => {
    const player = state.players.find((p) => p.seat === Number(seat));
    return player ? player.name : String(Number(seat) + 1);
  };

  // --- What the page shows -------------------------------------------------------------------
  const notice = (text, kind) => {
    const notices = read(noticesKey, []);
    notices.unshift({ text, kind, at: new Date().toISOString() });
    write(noticesKey, notices.slice(0, 6));
    renderNotices();
  };
  const renderNotices = () => {
    const list = document.getElementById("notices");
    list.replaceChildren(
      ...read(noticesKey, []).map((n) => {
        const item = element("li", `notice ${n.kind}`);
        item.append(element("strong", "", `${n.kind === "ok" ? words.accepted : words.refused}: `));
        item.append(document.createTextNode(n.text));
        return item;
      }),
    );
  };
  const describe = (entry) => {
    const picks = Object.entries(entry.picks || {})
      .filter(([, value]) => value !== "")
      .map(([key, value]) => {
        const input = form.querySelector(`[name="${key}"][value="${CSS.escape(String(value))}"]`);
        const label = input && input.closest("fieldset")?.querySelector("legend");
        const text = input?.nextElementSibling?.textContent || value;
        return label ? `${label.textContent}: ${text}` : text;
      });
    return picks.join(" · ");
  };
  // A deal as the engine scored it, in words: what happened, who went out in which order, and
  // who scored what (names, never seat numbers).
  const spoken = (deal) => {
    const parts = [deal.what || ""];
    if (deal.finish && deal.finish.length) parts.push(deal.finish.map((n, i) => `${i + 1}. ${n}`).join(" "));
    if (deal.scored && deal.scored.length) parts.push(deal.scored.join(", "));
    return parts.filter(Boolean).join(" · ");
  };
  const renderOutbox = () => {
    const outbox = read(outboxKey, []);
    const section = document.getElementById("outbox");
    section.hidden = outbox.length === 0;
    section.querySelector("ul").replaceChildren(
      ...outbox.map((entry) => {
        const item = element("li", "waiting");
        item.dataset.clientId = entry.client_id;
        const what = entry.action === "enter" ? describe(entry) : words[entry.action];
        item.textContent = `${fill(words.deal, { deal: entry.number })}: ${what}`;
        return item;
      }),
    );
  };
  const renderDeals = () => {
    const list = document.getElementById("deals");
    if (!state.deals.length) {
      list.replaceChildren(element("li", "empty", words.nothing));
    } else {
      list.replaceChildren(
        ...state.deals.map((deal) => {
          const item = element("li", `deal status-${deal.status}`);
          item.dataset.number = deal.number;
          item.append(element("strong", "", fill(words.deal, { deal: deal.number })));
          item.append(element("span", "tag", deal.status_text));
          item.append(element("p", "what", spoken(deal)));
          let who = fill(words.entered_by, { who: deal.entered_by });
          if (deal.reviewed_by) who += ` · ${deal.status_text} ${fill(words.reviewed_by, { who: deal.reviewed_by })}`;
          if (deal.note) who += ` · ${deal.note}`;
          item.append(element("p", "meta", who));
          if (deal.can_confirm || deal.can_dispute) {
            const actions = element("div", "deal-actions");
            if (deal.can_confirm) {
              const button = element("button", "primary big confirm", words.confirm);
              button.type = "button";
              button.addEventListener("click", () => queue({ action: "confirm", number: deal.number }));
              actions.append(button);
            }
            if (deal.can_dispute) {
              const button = element("button", "danger big dispute", words.dispute);
              button.type = "button";
              button.addEventListener("click", () => {
                const reason = window.prompt(words.reason) || "";
                queue({ action: "dispute", number: deal.number, reason });
              });
              actions.append(button);
            }
            item.append(actions);
          }
          return item;
        }),
      );
    }
    const history = document.getElementById("history");
    history.replaceChildren(
      ...state.history.map((v) => {
        const reviewed = v.reviewed_by ? ` · ${fill(words.reviewed_by, { who: v.reviewed_by })}` : "";
        return element(
          "li",
          "",
          `${fill(words.deal, { deal: v.number })} v${v.version} · ${v.status_text} · ${fill(words.entered_by, { who: v.entered_by })}${reviewed} · ${(v.entered_at || "").slice(11, 16)}`,
        );
      }),
    );
  };
  const nextNumber = () => {
    const waiting = read(outboxKey, []).filter((e) => e.action === "enter").map((e) => e.number);
    const base = state.next === null ? null : state.next;
    if (base === null) return null;
    const next = Math.max(base, ...waiting.map((n) => n + 1));
    return next > state.limit ? null : next;
  };
  const renderForm = () => {
    const next = nextNumber();
    const done = document.getElementById("sheet-done");
    done.hidden = !(state.recorded || state.finished || state.disputed);
    done.textContent = state.recorded ? words.recorded : state.finished ? words.finished : words.disputed;
    done.className = state.disputed ? "done disputed" : "done";
    form.hidden = next === null || (state.round_status !== "running" && !state.staff);
    if (next === null) return;
    form.dataset.number = next;
    document.getElementById("deal-title").textContent = fill(words.next, { deal: next });
    document.getElementById("first-dealer").hidden = next !== 1;
  };
  const render = () => {
    renderDeals();
    renderOutbox();
    renderForm();
    renderNotices();
    const connection = document.getElementById("connection");
    connection.textContent = navigator.onLine ? words.online : words.offline;
    connection.className = navigator.onLine ? "connection online" : "connection offline";
  };

  // --- Sending --------------------------------------------------------------------------------
  const post = (entry) =>
    fetch(config.api, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
      body: JSON.stringify(entry),
    });
  const flush = async () => {
    if (sending) return;
    sending = true;
    try {
      for (;;) {
        const outbox = read(outboxKey, []);
        if (!outbox.length) break;
        const entry = outbox[0];
        let response;
        try {
          response = await post(entry);
        } catch (error) {
          break; // no connection: the entry waits
        }
        if (response.status >= 500) break;
        let body = {};
        try {
          body = await response.json();
        } catch (error) {
          body = {};
        }
        write(outboxKey, read(outboxKey, []).filter((e) => e.client_id !== entry.client_id));
        if (response.ok) {
          state = body.state;
          write(stateKey, state);
          notice(fill(words.sent, { deal: entry.number }), "ok");
        } else {
          notice(body.detail || response.statusText, "refused");
          await refresh();
        }
        render();
      }
    } finally {
      sending = false;
      render();
    }
  };
  const refresh = async () => {
    try {
      const response = await fetch(config.api, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (response.ok) {
        state = await response.json();
        write(stateKey, state);
      }
    } catch (error) {
      // offline: the last state known stays
    }
  };
  const queue = (entry) => {
    entry.client_id = uuid();
    entry.at = new Date().toISOString();
    const outbox = read(outboxKey, []);
    outbox.push(entry);
    write(outboxKey, outbox);
    render();
    flush();
  };

  // --- The game's preview in words while the players tap (online only; it writes nothing) ----
  let previewTimer = 0;
  const picked = () => {
    const number = Number(form.dataset.number);
    const fields = {};
    for (const [key, value] of new FormData(form).entries()) {
      if (key === "first_dealer" && number !== 1) continue;
      fields[key] = String(value);
    }
    return { number, fields };
  };
  const preview = async () => {
    const box = document.getElementById("deal-preview");
    const { number, fields } = picked();
    if (!navigator.onLine || !Object.values(fields).some((v) => v !== "")) {
      box.hidden = true;
      return;
    }
    try {
      const response = await post({ action: "preview", number, picks: fields });
      const body = await response.json();
      box.hidden = false;
      box.className = response.ok ? "deal-preview ok" : "deal-preview refused";
      box.textContent = response.ok
        ? spoken(body.preview)
        : body.detail || "";
    } catch (error) {
      box.hidden = true;
    }
  };
  form.addEventListener("change", () => {
    window.clearTimeout(previewTimer);
    previewTimer = window.setTimeout(preview, 300);
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const { number, fields } = picked();
    if (!Object.entries(fields).some(([key, value]) => key !== "first_dealer" && value !== "")) {
      notice(words.pick, "refused");
      return;
    }
    window.clearTimeout(previewTimer);
    queue({ action: "enter", number, picks: fields });
    form.reset();
    document.getElementById("deal-preview").hidden = true;
  });

  // --- Offline: the service worker keeps the page and its files ------------------------------
  const offlineReady = () => {
    document.body.dataset.offlineReady = "1";
  };
  if ("serviceWorker" in navigator && window.caches) {
    navigator.serviceWorker
      .register(config.sw, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then(() => caches.open("luzi-sheet-v1"))
      .then((cache) => cache.addAll([config.page, config.api, ...config.assets]))
      .then(offlineReady, offlineReady);
  } else {
    offlineReady();
  }
  window.addEventListener("online", () => {
    render();
    flush().then(refresh).then(render);
  });
  window.addEventListener("offline", render);
  window.setInterval(() => {
    if (read(outboxKey, []).length) flush();
  }, 5000);
  // what the other phones at the table entered or confirmed, read again while connected
  window.setInterval(() => {
    if (navigator.onLine && !sending && !read(outboxKey, []).length) refresh().then(render);
  }, 10000);

  if (!navigator.onLine) {
    state = read(stateKey, state);
  }
  write(stateKey, state);
  render();
  refresh()
    .then(render)
    .then(flush);
})();

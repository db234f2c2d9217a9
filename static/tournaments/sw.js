// The site's service worker (served at /sw.js, scope "/"; tournaments/results/pages.py). It
// handles only what a table's score page needs when the hall's Wi-Fi drops: the page itself and
// its API read (network first, the last copy when offline) and the static files (the cached copy
// first). Every other request, and every POST, goes to the network untouched: an entry made
// offline waits in the page's own outbox (static/tournaments/table_sheet.js), never here.
"use strict";
const CACHE = "luzi-sheet-v1";
const SHEET = /^\/(api\/v1\/)?tables\/\d+\/sheet\/$/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

const networkFirst = async (request) => {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreSearch: true });
    if (cached) return cached;
    throw error;
  }
};

const cacheFirst = async (request) => {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (SHEET.test(url.pathname)) {
    event.respondWith(networkFirst(request));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  }
});

/* Muster's service worker, served at /sw.js so its scope is the whole site.
 *
 * Pages: network first; a page the server marked as its user's own (the Muster-User header) is kept in that
 * user's cache and shown when the signal is gone. So is the data a page draws itself from (KEPT_DATA: the
 * tactical map's full load, not its polls), so the map kept offline still shows its armies. Only one user's pages are ever kept: a page for another user,
 * or logging out, empties every page cache (and the queue of actions) first.
 * Actions: a state-changing request of a page that cannot reach the server is kept in IndexedDB with its
 * idempotency key and sent again, in order, when the signal returns ("online", background sync, a page
 * opening). The server applies each key at most once and answers a replay (Muster-Replay) with a sentence,
 * which the pages show. The API is never queued, but for one request: the map's order confirmation
 * (QUEUED_API), which the map page sends with the session and its own idempotency key.
 */
"use strict";

const STATIC_CACHE = "muster-static-v1";
const PAGES_PREFIX = "muster-pages-";
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const NEVER_QUEUED = ["/accounts/", "/api/", "/admin/"];
const QUEUED_API = ["/api/move-orders/"]; // creating a movement order: a player's action from the map page
const ONLY_ONLINE = /\/preview\/$/; // a preview changes nothing: offline it simply fails
const KEPT_DATA = [/\/map\/data\/$/]; // fetched by a kept page to draw itself (full loads only: no query)
const REPLAY_HEADERS = ["content-type", "x-csrftoken", "idempotency-key"];
const LABELS = [[/\/matches\/\d+\/act\/$/, "Your move"], [/^\/api\/move-orders\/$/, "Movement order"],
  [/\/battles\/\d+\/log\/$/, "Logged result"], [/\/funding/, "Funding request"]];
const OFFLINE_PAGE = "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
  "<title>Offline · Muster</title><p role=status>You are offline and this page was not opened before on this " +
  "phone. Go back to a page you have seen, or wait for the signal.</p>";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function database() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("muster-offline", 1);
    opening.onupgradeneeded = () => {
      opening.result.createObjectStore("queue", { keyPath: "id", autoIncrement: true });
      opening.result.createObjectStore("meta");
    };
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

async function inStore(name, mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(name, mode);
    const request = work(transaction.objectStore(name));
    transaction.oncomplete = () => resolve(request ? request.result : undefined);
    transaction.onerror = () => reject(transaction.error);
  });
}

const queued = () => inStore("queue", "readonly", (store) => store.getAll());
const enqueue = (item) => inStore("queue", "readwrite", (store) => store.add(item));
const dequeue = (id) => inStore("queue", "readwrite", (store) => store.delete(id));
const owner = () => inStore("meta", "readonly", (store) => store.get("owner"));

async function forget() {
  for (const name of await caches.keys()) {
    if (name.startsWith(PAGES_PREFIX)) await caches.delete(name);
  }
  await inStore("queue", "readwrite", (store) => store.clear());
  await inStore("meta", "readwrite", (store) => store.delete("owner"));
}

async function keepFor(user, url, response) {
  if ((await owner()) !== user) {
    await forget();
    await inStore("meta", "readwrite", (store) => store.put(user, "owner"));
  }
  await (await caches.open(PAGES_PREFIX + user)).put(url, response);
}

const OFFLINE_DATA = () => new Response(JSON.stringify({ detail: "You are offline and this was not loaded before " +
  "on this phone." }), { status: 503, headers: { "Content-Type": "application/json" } });
const OFFLINE_HTML = () => new Response(OFFLINE_PAGE, { status: 503,
  headers: { "Content-Type": "text/html; charset=utf-8" } });

async function page(request, unkept = OFFLINE_HTML) {
  try {
    const response = await fetch(request);
    const user = response.headers.get("Muster-User");
    const stored = !(response.headers.get("Cache-Control") || "").includes("no-store");
    if (user && response.status === 200 && stored) await keepFor(user, request.url, response.clone());
    return response;
  } catch (offline) {
    const user = await owner();
    const kept = user && (await (await caches.open(PAGES_PREFIX + user)).match(request.url));
    return kept || unkept();
  }
}

async function staticFile(request) {
  const cache = await caches.open(STATIC_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (offline) {
    return (await cache.match(request)) || Response.error();
  }
}

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function formKey(body, type) {
  if (!(type || "").startsWith("application/x-www-form-urlencoded")) return null;
  return new URLSearchParams(new TextDecoder().decode(body)).get("idempotency_key");
}

async function sendOrQueue(request) {
  const body = await request.clone().arrayBuffer();
  try {
    return await fetch(request);
  } catch (offline) {
    const headers = {};
    for (const [name, value] of request.headers) {
      if (REPLAY_HEADERS.includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
    }
    if (!headers["idempotency-key"] && !formKey(body, headers["content-type"])) headers["idempotency-key"] = newKey();
    const path = new URL(request.url).pathname;
    const label = (LABELS.find(([pattern]) => pattern.test(path)) || [null, "Action"])[1];
    await enqueue({ url: request.url, method: request.method, headers, body, label, owner: await owner() });
    await announce([]);
    if (self.registration.sync) self.registration.sync.register("muster-queue").catch(() => {});
    if (request.mode === "navigate") return Response.redirect(request.referrer || "/", 303);
    return new Response("", { status: 202, headers: { "HX-Reswap": "none", "Muster-Queued": "1" } });
  }
}

async function drain() {
  const user = await owner();
  const results = [];
  for (const item of await queued()) {
    if (item.owner !== user) { // another user's action is never sent with this session
      await dequeue(item.id);
      continue;
    }
    let response;
    try {
      response = await fetch(item.url, { method: item.method, body: item.body, credentials: "same-origin",
        redirect: "manual", headers: { ...item.headers, "Muster-Replay": "1" } });
    } catch (offline) {
      break; // still no signal: keep this one and those after it, in order
    }
    if (response.status >= 500) break;
    const account = (response.headers.get("Content-Type") || "").startsWith("application/json")
      ? await response.json().catch(() => null) : null;
    await dequeue(item.id);
    results.push({ label: item.label, applied: Boolean(account && account.applied),
      sentence: (account && (account.sentence || account.detail)) ||
        (account ? "" : `The server refused it (${response.status}).`) });
  }
  await announce(results);
}

let draining = null;
function replay() {
  if (!draining) draining = drain().finally(() => { draining = null; });
  return draining;
}

async function announce(results) {
  const waiting = (await queued()).length;
  for (const client of await self.clients.matchAll({ type: "window" })) {
    client.postMessage({ type: "muster-queue", waiting, results });
  }
}

// Kept offline: a page's action, or the map's order confirmation as the map sends it (a POST with the session's
// CSRF token and an idempotency key, never a token client's Authorization), so it is applied once when sent.
function queueable(request, path) {
  if (QUEUED_API.includes(path)) {
    return request.method === "POST" && request.credentials !== "omit" && !request.headers.has("authorization") &&
      request.headers.has("x-csrftoken") && request.headers.has("idempotency-key");
  }
  return !NEVER_QUEUED.some((prefix) => path.startsWith(prefix)) && !ONLY_ONLINE.test(path);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (UNSAFE.has(request.method)) {
    if (url.pathname === "/accounts/logout/") event.respondWith(forget().then(() => fetch(request)));
    else if (queueable(request, url.pathname)) event.respondWith(sendOrQueue(request));
  } else if (request.method === "GET" && url.pathname.startsWith("/static/")) {
    event.respondWith(staticFile(request));
  } else if (request.method === "GET" && request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (request.method === "GET" && !url.search && KEPT_DATA.some((pattern) => pattern.test(url.pathname))) {
    event.respondWith(page(request, OFFLINE_DATA));
  }
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "replay") event.waitUntil(replay());
  else if (message.type === "status") event.waitUntil(announce([]));
  else if (message.type === "keep") event.waitUntil(page(new Request(message.url)).then(() => undefined));
});

self.addEventListener("sync", (event) => {
  if (event.tag === "muster-queue") event.waitUntil(replay());
});

// Web Push: each message is one notification's text and link (campaign.notifications.delivery.push_payload).
self.addEventListener("push", (event) => {
  const message = event.data ? event.data.json() : { title: "Muster", body: "Something needs you." };
  event.waitUntil(self.registration.showNotification(message.title || "Muster", {
    body: message.body, tag: message.tag, data: { url: message.url || "/notifications/" },
    icon: "/static/icons/muster-192.png" }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data.url));
});

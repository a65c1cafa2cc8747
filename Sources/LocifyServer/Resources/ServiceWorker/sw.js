// Locify's service worker: pages keep opening when the server cannot be reached.
// Served from /sw.js, with the version and the shell's files written in by the server, so a new version
// of Locify installs a new worker, which fetches the new shell and removes the old one.
"use strict";

const VERSION = "__LOCIFY_VERSION__";
// The files every page needs and the page shown for a page not saved here; all of them answer without
// a session, so installing never depends on who is signed in.
const SHELL_FILES = __LOCIFY_SHELL_FILES__;
const OFFLINE_PAGE = "__LOCIFY_OFFLINE_PAGE__";
const SHELL_CACHE = `locify-shell-${VERSION}`;
// The basemap's drawing changes only with a new version of Locify.
const BASEMAP_CACHE = `locify-basemap-${VERSION}`;
// Pages as the server last rendered them, kept across versions until the person logs out.
const PAGES_CACHE = "locify-pages";
// Avatars already seen, by their address without the signature (which changes every week).
const PICTURES_CACHE = "locify-pictures";
// Each map area kept for offline use has its own cache of tiles (map-areas.js fills them).
const AREA_CACHE_PREFIX = "locify-area-";
const SAVED_AT = "X-Locify-Saved-At";
const SAVED_TITLE = "X-Locify-Title";
// Where the server marks the page for the worker's notes.
const STATUS_MARK = "<!--offline-status-->";
const SAVED_PAGES_MARK = "<!--saved-pages-->";
// How many pages the offline page lists before it lists only the sections and the ones saved last.
const SAVED_PAGES_LISTED = 40;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL_FILES.concat([OFFLINE_PAGE])))
      .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => /^locify-(shell|basemap)-/.test(name) && name !== SHELL_CACHE && name !== BASEMAP_CACHE)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (SHELL_FILES.includes(url.pathname + url.search)) {
    // From the shell's own cache: `caches.match` would look through every cache, the pages' thousands too.
    event.respondWith(caches.open(SHELL_CACHE).then((cache) => cache.match(request)).then((kept) => kept || fetch(request)));
  } else if (url.pathname.startsWith("/maps/basemap/")) {
    event.respondWith(areaTile(url).then((tile) => tile || kept(request, BASEMAP_CACHE, request.url, { preferNetwork: false })));
  } else if (url.pathname.startsWith("/maps/tiles/")) {
    // A tile of a saved area answers from the device; others from the tile proxy, as without the worker.
    event.respondWith(areaTile(url).then((tile) => tile || fetch(request)));
  } else if (url.pathname.startsWith("/store/avatars/")) {
    event.respondWith(kept(request, PICTURES_CACHE, url.origin + url.pathname, { preferNetwork: true }));
  }
});

/// A page from the server, saved for later; when the server cannot be reached (or its proxy says it is
/// down), the saved copy with a note saying how old it is, or the offline page.
async function page(event) {
  const request = event.request;
  let response;
  try {
    response = await fetch(request);
  } catch {
    return savedPage(request);
  }
  if ([502, 503, 504].includes(response.status)) return savedPage(request, response);
  const type = response.headers.get("Content-Type") || "";
  if (response.status === 200 && type.startsWith("text/html") && !response.redirected) {
    // Saved while the page is already on its way to the browser.
    event.waitUntil(save(request.url, response.clone()));
  }
  return response;
}

// Pages are kept gzipped: mostly markup, they take a fifth of the room or less, so a device keeps every
// page of a large account (each address form carries the world's countries) well within its storage.
const COMPRESSED = "X-Locify-Compressed";

// A one-time message ("This contact is you.") belongs to the visit that showed it, not to the device's
// copy of the page, which may be opened offline days later.
const FLASH_MESSAGE = /<p class="flash" role="status">[^<]*<\/p>/;

async function save(url, response) {
  const text = (await response.text()).replace(FLASH_MESSAGE, "");
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT, new Date().toISOString());
  headers.set(SAVED_TITLE, encodeURIComponent(title(text)));
  headers.set(COMPRESSED, "gzip");
  headers.delete("Content-Length");
  const body = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).blob();
  const cache = await caches.open(PAGES_CACHE);
  await cache.put(url, new Response(body, { status: 200, headers }));
}

/// The text of a kept page, gzipped or not (pages kept by an earlier version).
async function keptText(response) {
  if (response.headers.get(COMPRESSED) !== "gzip") return response.text();
  return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).text();
}

// Pages the page's script asks to keep current (offline-store.js): after each sync, the pages of what
// changed (`refresh`), every page of the account that is not kept yet (`ensure`, so a first download
// interrupted by a closed tab goes on next time) and the pages of deleted records (`drop`). One batch at
// a time, four pages at once; the open pages hear how far it got. With them, the basemap's low zooms
// (`tiles`) not kept yet.
self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "areas-changed") areaCaches = null;
  if (message.type !== "keep-pages") return;
  keeping = keeping.then(() => keepPages(message)).catch(() => {});
  event.waitUntil(keeping);
});
let keeping = Promise.resolve();

async function keepPages({ refresh = [], ensure = [], drop = [], tiles = [] }) {
  const cache = await caches.open(PAGES_CACHE);
  const basemap = await caches.open(BASEMAP_CACHE);
  const absolute = (path) => new URL(path, self.location.origin).href;
  for (const path of drop) await cache.delete(absolute(path));
  const wanted = new Set(refresh.map(absolute));
  for (const path of ensure) {
    const url = absolute(path);
    if (!wanted.has(url) && !(await cache.match(url))) wanted.add(url);
  }
  // The basemap's low zooms, once per version of the basemap (its cache goes with the version).
  const tilesWanted = [];
  for (const path of tiles) {
    const url = absolute(path);
    if (!(await basemap.match(url))) tilesWanted.push(url);
  }
  const queue = [...wanted, ...tilesWanted];
  const isTile = new Set(tilesWanted);
  const total = queue.length;
  let done = 0;
  let signedOut = false;
  let cutShort = false;
  const report = () => tell({ type: "pages-kept", done, total, kept: null });
  async function worker() {
    while (queue.length > 0 && !signedOut) {
      const url = queue.shift();
      try {
        // Marked as the keeper's: the server leaves a one-time message for the page the person opens next.
        const response = await fetch(url, { credentials: "same-origin", headers: { "X-Locify-Keeping": "1" } });
        // A page answered with the log-in form means the session ended: keep nothing more.
        if (response.redirected && new URL(response.url).pathname !== new URL(url).pathname) signedOut = true;
        const type = response.headers.get("Content-Type") || "";
        if (isTile.has(url)) {
          if (response.status === 200) await basemap.put(url, response);
        } else if (response.status === 200 && type.startsWith("text/html") && !response.redirected) {
          await save(url, response);
        } else if (response.status === 404) {
          await cache.delete(url);
        }
      } catch {
        // The network went away: what is kept stays; the next sync asks again.
        queue.length = 0;
        cutShort = true;
      }
      done += 1;
      if (done % 25 === 0) report();
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()]);
  const complete = !signedOut && !cutShort;
  tell({ type: "pages-kept", done, total, kept: (await cache.keys()).length, complete });
}

async function tell(message) {
  for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage(message);
}

async function savedPage(request, failure) {
  const pages = await caches.open(PAGES_CACHE);
  const saved = (await pages.match(request.url)) || (await listSearched(pages, request.url)) ||
    (await withoutReturn(pages, request.url));
  if (saved) return annotated(saved, savedNote(saved.headers.get(SAVED_AT)));
  const offline = await (await caches.open(SHELL_CACHE)).match(OFFLINE_PAGE);
  if (!offline) return failure || Response.error();
  return annotated(offline, notSavedNote(), await savedPagesList(pages));
}

/// A form opened from another page than the one it was kept from (`/reminders/5/edit?return_to=…`, kept
/// as `/reminders/5/edit`): the form itself, which goes back to its own list once saved.
async function withoutReturn(pages, address) {
  const url = new URL(address);
  if (!url.searchParams.has("return_to")) return undefined;
  url.searchParams.delete("return_to");
  return pages.match(url.href);
}

/// For a search not kept (`/contacts?q=ada`), the list it searches: the page's script
/// (offline-search.js) searches the device's copy and shows the list's own rows that match. The map's
/// search (`/map?q=cafe&near=…`) is answered with the map, `near` only ranking what it finds.
async function listSearched(pages, address) {
  const url = new URL(address);
  if (!url.searchParams.has("q")) return undefined;
  url.searchParams.delete("q");
  url.searchParams.delete("page");
  const list = await pages.match(url.href);
  if (list || !url.searchParams.has("near")) return list;
  url.searchParams.delete("near");
  return pages.match(url.href);
}

/// The page's text with the worker's notes where the server marked their places.
async function annotated(response, note, list = "") {
  const text = (await keptText(response)).replace(STATUS_MARK, note).replace(SAVED_PAGES_MARK, list);
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.delete(COMPRESSED);
  return new Response(text, { status: 200, headers });
}

function savedNote(savedAt) {
  const date = new Date(savedAt);
  const valid = !Number.isNaN(date.getTime());
  const when = valid
    ? `<time datetime="${date.toISOString()}">${escapeHTML(age(date))}, ${escapeHTML(
      new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(date))}</time>`
    : "earlier";
  return `<p class="offline-status" role="status" data-offline-saved-at="${valid ? date.toISOString() : ""}">` +
    `<strong>Offline.</strong> The server cannot be reached, so this is the copy of this page saved on this device ` +
    `${when}. Changes made since then elsewhere do not show.</p>`;
}

function notSavedNote() {
  return `<p class="offline-status" role="status"><strong>Offline.</strong> The server cannot be reached, and ` +
    `this page has not been saved on this device yet.</p>`;
}

/// The pages saved on this device, newest first, as links. With every page of an account kept (thousands),
/// a list of them all would bury the way on and take seconds to read: then the app's sections (the pages
/// of one path segment, such as /contacts) and the pages saved last (a cache lists its entries in the order
/// they were put), with how many more there are.
async function savedPagesList(pages) {
  const requests = await pages.keys();
  if (requests.length === 0) return "<p>No page has been saved on this device yet.</p>";
  const isSection = (request) => {
    const url = new URL(request.url);
    return url.search === "" && url.pathname.split("/").length === 2;
  };
  const shown = requests.length <= SAVED_PAGES_LISTED ? requests
    : [...requests.filter(isSection), ...requests.filter((request) => !isSection(request)).slice(-SAVED_PAGES_LISTED)];
  const entries = [];
  for (const request of shown) {
    const response = await pages.match(request);
    if (!response) continue;
    const url = new URL(request.url);
    entries.push({
      path: url.pathname + url.search,
      title: decodeURIComponent(response.headers.get(SAVED_TITLE) || "") || url.pathname,
      savedAt: response.headers.get(SAVED_AT) || "",
    });
  }
  entries.sort((a, b) => b.savedAt.localeCompare(a.savedAt));
  const items = entries.map((entry) =>
    `<li><a href="${escapeHTML(entry.path)}">${escapeHTML(entry.title)}</a></li>`).join("");
  const more = requests.length - entries.length;
  const rest = more > 0
    ? `<p>And ${more.toLocaleString("en")} more pages saved, each reached from these as online.</p>` : "";
  return `<h2>Saved on this device</h2><ul class="saved-pages">${items}</ul>${rest}`;
}

/// The tile from the areas kept on this device, or null. A dark map gets the area's light tile: an area
/// keeps one drawing of each tile.
async function areaTile(url) {
  const key = url.origin + url.pathname;
  for (const name of await areaCacheNames()) {
    // `cacheName` rather than `caches.open`, which would make again an area's cache deleted meanwhile.
    const hit = await caches.match(key, { cacheName: name });
    if (hit) return hit;
  }
  return null;
}

// The names of the area caches, read once rather than for every tile; map-areas.js says when an area is
// kept or removed (`areas-changed`), and a worker started anew reads them again.
let areaCaches = null;
async function areaCacheNames() {
  if (!areaCaches) areaCaches = (await caches.keys()).filter((name) => name.startsWith(AREA_CACHE_PREFIX));
  return areaCaches;
}

/// A file kept on the device: from the network first (`preferNetwork`) or from the device first; the
/// device's copy when the network fails.
async function kept(request, cacheName, key, { preferNetwork }) {
  const cache = await caches.open(cacheName);
  if (!preferNetwork) {
    const hit = await cache.match(key);
    if (hit) return hit;
  }
  try {
    const response = await fetch(request);
    if (response.status === 200) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw error;
  }
}

function title(html) {
  const found = /<title>([^<]*)<\/title>/i.exec(html);
  if (!found) return "";
  // The layout's titles end with " · Locify"; the list reads better without it.
  return unescapeHTML(found[1]).replace(/ · Locify$/, "");
}

function age(date) {
  const seconds = Math.round((date.getTime() - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const steps = [["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, "minute");
}

function escapeHTML(text) {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function unescapeHTML(text) {
  return text.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, "\"").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

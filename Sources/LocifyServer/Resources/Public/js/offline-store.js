// The signed-in account's data kept on this device, in IndexedDB, through the sync feed (`GET /api/sync`):
// the whole account at the first visit, then only what changed, on each page load, when the network comes
// back and every few minutes while a page is open; changes made offline (offline-changes.js) are sent
// first. Offline search reads it.
// Progressive enhancement only: pages work without it.
const LocifyStore = (() => {
  const databaseName = "locify";
  const pageSize = 500;
  const every = 5 * 60 * 1000;
  // How often the worker checks every page of the account is kept (pages evicted, a download cut short),
  // when no sync brought a change.
  const checkPagesEvery = 60 * 60 * 1000;
  const PLAN_KEY = "locify-offline-plan";
  // The plan's part about what others share with the account, as last asked (offline-store's own).
  const SHARED_KEY = "locify-offline-shared";

  function request(operation) {
    return new Promise((resolve, reject) => {
      operation.onsuccess = () => resolve(operation.result);
      operation.onerror = () => reject(operation.error);
    });
  }

  function finished(transaction) {
    return new Promise((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error || new Error("aborted"));
    });
  }

  // Set by the log-out before it deletes the copy: a sync or a push finishing after that must not make
  // the database again (opening one that is gone creates it).
  let closed = false;

  /// Ends every use of the device's copy on this page; the log-out deletes it next.
  function close() {
    closed = true;
  }

  function open() {
    if (closed) return Promise.reject(new Error("the copy on this device is being removed"));
    const opening = indexedDB.open(databaseName, 2);
    opening.onupgradeneeded = (event) => {
      const database = opening.result;
      if (event.oldVersion < 1) {
        // One record of the feed per type and uuid, as the feed sent it: {type, uuid, id, revision, data}.
        const records = database.createObjectStore("records", { keyPath: ["type", "uuid"] });
        records.createIndex("by_type", "type");
        // What the copy is: whose, up to which cursor, when it was last brought up to date, this
        // device's name in pushes.
        database.createObjectStore("meta");
      }
      if (event.oldVersion < 2) {
        // Changes made offline, in the order they were made; the key is the mutation's id in a push.
        database.createObjectStore("queue", { keyPath: "id", autoIncrement: true });
        // Changes the server refused or found in conflict, until the person has read them.
        database.createObjectStore("problems", { keyPath: "id" });
      }
    };
    return request(opening).then((database) => {
      // The log-out's deletion (or a newer version in another tab) goes ahead at once: this connection
      // closes, and whatever it was doing is dropped with the page it was for.
      database.onversionchange = () => database.close();
      return database;
    });
  }

  /// Runs `work` with the database open, and closes it after: a connection left open would hold up a
  /// newer version's upgrade and the log-out's deletion.
  async function withDatabase(work) {
    const database = await open();
    try {
      return await work(database);
    } finally {
      database.close();
    }
  }

  async function meta(database) {
    const store = database.transaction("meta").objectStore("meta");
    const [account, cursor, syncedAt] = await Promise.all(
      ["account", "cursor", "syncedAt"].map((key) => request(store.get(key))));
    // {at, count}: when the service worker last kept every page of the copy, and how many there were.
    return { account, cursor, syncedAt, pagesKept: await request(store.get("pagesKept")) };
  }

  /// Notes in the copy's meta that the service worker kept every page of it, `count` in all.
  async function notePagesKept(count) {
    return withDatabase(async (database) => {
      const transaction = database.transaction("meta", "readwrite");
      transaction.objectStore("meta").put({ at: new Date().toISOString(), count }, "pagesKept");
      await finished(transaction);
    });
  }

  /// Starts the copy anew. `keepChanges` keeps the changes waiting (the same account's copy begins
  /// again after a 409 or 410); another account's copy loses them with everything else.
  async function forget(database, account, { keepChanges = false } = {}) {
    const stores = keepChanges ? ["records", "meta"] : ["records", "meta", "queue", "problems"];
    const transaction = database.transaction(stores, "readwrite");
    const store = transaction.objectStore("meta");
    // Read before anything is cleared; the transaction stays open while its requests answer.
    const clientId = keepChanges ? await request(store.get("clientId")) : null;
    transaction.objectStore("records").clear();
    if (!keepChanges) {
      transaction.objectStore("queue").clear();
      transaction.objectStore("problems").clear();
    }
    store.clear();
    store.put(account, "account");
    if (clientId) store.put(clientId, "clientId");
    await finished(transaction);
  }

  /// One page of the feed into the copy, with the cursor after it, in one transaction: a copy is never
  /// ahead of or behind its cursor, whenever the page is closed.
  /// Adds to `touched` what the page changed, with each deleted record as it was (its page, or its
  /// parent's, is where the deletion shows).
  async function apply(database, page, touched) {
    const transaction = database.transaction(["records", "meta"], "readwrite");
    const records = transaction.objectStore("records");
    for (const change of page.changes) {
      records.put(change);
      touched.push({ type: change.type, data: change.data, deleted: false });
    }
    for (const deletion of page.deletions) {
      const key = [deletion.type, deletion.uuid];
      const reading = records.get(key);
      reading.onsuccess = () => {
        touched.push({ type: deletion.type, data: reading.result ? reading.result.data : { id: deletion.id }, deleted: true });
        records.delete(key);
      };
    }
    transaction.objectStore("meta").put(page.cursor, "cursor");
    await finished(transaction);
  }

  /// Brings the copy up to date; `progress(count)` hears how many records came so far. Answers what
  /// changed, and whether the copy started from nothing.
  async function pull(url, account, progress) {
    const database = await open();
    const touched = [];
    let fresh = false;
    let pagesKeptAt = null;
    try {
      let known = await meta(database);
      if (known.account !== account) {
        // Another account's copy (or none): this one starts from nothing.
        await forget(database, account);
        known = { account, cursor: null };
      }
      pagesKeptAt = known.pagesKept ? known.pagesKept.at : null;
      let cursor = known.cursor || "";
      fresh = !cursor;
      let received = 0;
      for (;;) {
        const query = `?limit=${pageSize}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : "");
        const response = await fetch(url + query, { headers: { Accept: "application/json" } });
        if (response.status === 409 || response.status === 410) {
          // The server let this cursor go (or was restored from a backup): download everything again.
          await forget(database, account, { keepChanges: true });
          cursor = "";
          fresh = true;
          touched.length = 0;
          continue;
        }
        if (!response.ok) throw new Error(`the sync feed answered ${response.status}`);
        const page = await response.json();
        await apply(database, page, touched);
        received += page.changes.length + page.deletions.length;
        if (progress) progress(received);
        cursor = page.cursor;
        if (!page.has_more) break;
      }
      const transaction = database.transaction("meta", "readwrite");
      transaction.objectStore("meta").put(new Date().toISOString(), "syncedAt");
      await finished(transaction);
    } finally {
      database.close();
    }
    return { touched, fresh, pagesKeptAt };
  }

  function dig(data, key) {
    return key.reduce((value, part) => (value == null ? null : value[part]), data);
  }

  /// Which pages the service worker keeps current, from the server's plan (which pages show which
  /// records) and what the sync changed: the pages of changed records, their parents' and their lists';
  /// every page of the account it has not kept yet; none of a deleted record.
  async function keepPages(planURL, pulled) {
    // Nothing changed and every page was kept lately: no plan to ask for, nothing to check.
    const keptLately = pulled.pagesKeptAt && Date.now() - new Date(pulled.pagesKeptAt).getTime() < checkPagesEvery;
    if (!pulled.fresh && pulled.touched.length === 0 && keptLately) return;
    const worker = navigator.serviceWorker && (navigator.serviceWorker.controller ||
      (await navigator.serviceWorker.ready).active);
    if (!worker) return;
    const response = await fetch(planURL, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const answer = await response.json();
    const plan = answer.types;
    // Kept for the pages' marks of changes waiting (offline-changes.js), which may be drawn offline.
    localStorage.setItem(PLAN_KEY, JSON.stringify(plan));
    if (answer.shared) localStorage.setItem(SHARED_KEY, JSON.stringify(answer.shared));
    const fill = (template, id) => template.replaceAll("{id}", id);
    const pageOf = (type, id) => (plan[type] && plan[type].page && id != null ? fill(plan[type].page, id) : null);
    // A record's page and its forms (its edit page), kept, refreshed and dropped together; `{parent}` in
    // a form's address is its parent's id (an address's contact).
    const pagesOf = (type, data) => {
      const kind = plan[type];
      if (!kind || !data || data.id == null) return [];
      const parentID = kind.parent ? dig(data, kind.parent.key) : null;
      return (kind.page ? [kind.page] : []).concat(kind.forms || [])
        .filter((template) => !template.includes("{parent}") || parentID != null)
        .map((template) => fill(template, data.id).replaceAll("{parent}", parentID));
    };
    const everyPage = async (type) => (await all(type)).flatMap((data) => pagesOf(type, data));
    const ensure = new Set();
    for (const [type, kind] of Object.entries(plan)) {
      for (const list of kind.lists) ensure.add(list);
      for (const page of await everyPage(type)) ensure.add(page);
    }
    const refresh = new Set(pulled.fresh ? ensure : []);
    const drop = new Set();
    const everyPageOf = new Set();
    for (const { type, data, deleted } of pulled.fresh ? [] : pulled.touched) {
      const kind = plan[type];
      if (!kind) continue;
      for (const list of kind.lists) refresh.add(list);
      for (const own of pagesOf(type, data)) (deleted ? drop : refresh).add(own);
      if (kind.parent) {
        const parent = pageOf(kind.parent.type, dig(data, kind.parent.key));
        if (parent) refresh.add(parent);
      }
      if (kind.every_page_of) everyPageOf.add(kind.every_page_of);
    }
    for (const type of everyPageOf) for (const page of await everyPage(type)) refresh.add(page);
    for (const page of await pagesPastTheEnd(ensure)) drop.add(page);
    for (const page of drop) refresh.delete(page);
    worker.postMessage({
      type: "keep-pages", refresh: [...refresh], ensure: [...ensure], drop: [...drop], tiles: basemapTiles(answer.basemap),
    });
  }

  /// Keeps the pages of what others share with the account (the plan's `shared`: categories shared with
  /// it), from each one's own feed: its list's pages and its records' pages, refreshed when its feed
  /// brings a change, dropped when a record leaves it (its last page's `present`) or the sharing ends.
  /// What each showed, and its feed's cursor, are kept in the copy's meta (`shared`).
  async function keepSharedPages(planURL) {
    const worker = navigator.serviceWorker && (navigator.serviceWorker.controller ||
      (await navigator.serviceWorker.ready).active);
    if (!worker) return;
    let shared;
    try {
      shared = JSON.parse(localStorage.getItem(SHARED_KEY) || "null");
    } catch {
      shared = null;
    }
    if (!shared) {
      const response = await fetch(planURL, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      shared = (await response.json()).shared;
      if (!shared) return;
      localStorage.setItem(SHARED_KEY, JSON.stringify(shared));
    }
    const listed = await fetch(shared.list, { headers: { Accept: "application/json" } });
    if (!listed.ok) return;
    const collections = (await listed.json()).data || [];
    const known = await withDatabase((database) =>
      request(database.transaction("meta").objectStore("meta").get("shared"))) || {};
    const recordPage = (id) => shared.record_page.replaceAll("{id}", id);
    const collectionPages = (id, count) => {
      const first = shared.collection_page.replaceAll("{id}", id);
      const last = Math.max(1, Math.ceil(count / shared.page_size));
      return [first].concat(Array.from({ length: last - 1 }, (_, index) => `${first}?page=${index + 2}`));
    };
    const refresh = new Set();
    const ensure = new Set();
    const drop = new Set();
    const next = {};
    for (const collection of collections) {
      const before = known[collection.id] || { cursor: "", records: {} };
      const records = { ...before.records };
      let cursor = before.cursor;
      let changed = !cursor;
      let gone = false;
      for (;;) {
        const query = `?limit=${pageSize}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : "");
        const response = await fetch(`${shared.list}/${collection.id}/sync${query}`, { headers: { Accept: "application/json" } });
        if (response.status === 404) {
          gone = true;
          break;
        }
        if ((response.status === 409 || response.status === 410) && cursor) {
          cursor = "";
          changed = true;
          continue;
        }
        if (!response.ok) throw new Error(`a shared feed answered ${response.status}`);
        const page = await response.json();
        for (const change of page.changes) {
          changed = true;
          if (change.type === shared.record_type) {
            records[change.uuid] = change.id;
            refresh.add(recordPage(change.id));
          } else if (change.data && change.data[shared.parent_key] != null) {
            refresh.add(recordPage(change.data[shared.parent_key]));
          } else {
            // The collection itself (renamed): every page of it shows its name.
            for (const id of Object.values(records)) refresh.add(recordPage(id));
          }
        }
        if (page.present && page.present[shared.record_type]) {
          const still = new Set(page.present[shared.record_type]);
          for (const [uuid, id] of Object.entries(records)) {
            if (still.has(uuid)) continue;
            drop.add(recordPage(id));
            delete records[uuid];
            changed = true;
          }
        }
        cursor = page.cursor;
        if (!page.has_more) break;
      }
      if (gone) continue;
      if (!known[collection.id]) refresh.add(shared.list_page);
      next[collection.id] = { cursor, records, count: collection.places_count };
      for (const page of collectionPages(collection.id, collection.places_count)) {
        ensure.add(page);
        if (changed) refresh.add(page);
      }
      for (const id of Object.values(records)) ensure.add(recordPage(id));
    }
    // A sharing that ended: none of its pages stay on the device.
    for (const [id, before] of Object.entries(known)) {
      if (next[id]) continue;
      refresh.add(shared.list_page);
      for (const page of collectionPages(id, before.count || 0)) drop.add(page);
      for (const record of Object.values(before.records || {})) drop.add(recordPage(record));
    }
    await withDatabase(async (database) => {
      const transaction = database.transaction("meta", "readwrite");
      transaction.objectStore("meta").put(next, "shared");
      await finished(transaction);
    });
    for (const page of drop) {
      refresh.delete(page);
      ensure.delete(page);
    }
    // Nothing new: the pages kept are current (a page the device lost comes back with the next change).
    if (refresh.size === 0 && drop.size === 0) return;
    worker.postMessage({ type: "keep-pages", refresh: [...refresh], ensure: [...ensure], drop: [...drop] });
  }

  /// The kept pages of the plan's lists that the lists no longer have (`/contacts?page=5` once there are
  /// four pages): a list and its variants the plan names (`?archived=1`), not a sort or search of it.
  async function pagesPastTheEnd(lists) {
    const withoutPage = (url) => {
      const params = new URLSearchParams(url.search);
      params.delete("page");
      params.sort();
      return url.pathname + "?" + params;
    };
    const listed = new Set([...lists].map((path) => withoutPage(new URL(path, location.origin))));
    const kept = await (await caches.open("locify-pages")).keys();
    return kept.map((request) => new URL(request.url))
      .filter((url) => url.searchParams.has("page") && listed.has(withoutPage(url)))
      .map((url) => url.pathname + url.search)
      .filter((path) => !lists.has(path));
  }

  /// Every basemap tile of the plan's low zooms, drawn as the maps on this device draw them (light or
  /// dark), for the worker to keep.
  function basemapTiles(basemap) {
    if (!basemap) return [];
    const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    const tiles = [];
    for (let z = 0; z <= basemap.zooms; z++) {
      for (let x = 0; x < 2 ** z; x++) {
        for (let y = 0; y < 2 ** z; y++) {
          tiles.push(basemap.tile.replace("{z}", z).replace("{x}", x).replace("{y}", y) + (dark ? "?palette=dark" : ""));
        }
      }
    }
    return tiles;
  }

  /// How many records of each type the copy holds, and when it was last brought up to date.
  async function summary() {
    return withDatabase(async (database) => {
      const known = await meta(database);
      return {
        account: known.account, syncedAt: known.syncedAt, pages: known.pagesKept ? known.pagesKept.count : null,
        counts: await countByType(database),
      };
    });
  }

  function countByType(database) {
    return new Promise((resolve, reject) => {
      const counts = {};
      const walk = database.transaction("records").objectStore("records").index("by_type").openKeyCursor();
      walk.onsuccess = () => {
        const cursor = walk.result;
        if (!cursor) return resolve(counts);
        counts[cursor.key] = (counts[cursor.key] || 0) + 1;
        cursor.continue();
      };
      walk.onerror = () => reject(walk.error);
    });
  }

  /// The records of one type, for offline pages and search.
  async function all(type) {
    return withDatabase(async (database) => {
      const records = await request(
        database.transaction("records").objectStore("records").index("by_type").getAll(type));
      return records.map((record) => record.data);
    });
  }

  /// The device's copy of the record of `type` with `id` ({type, uuid, id, revision, data}), or null.
  /// Forms name records by id, a change by uuid: looked up among the type's records, as a form is sent
  /// far less often than the copy is written (an index by id would slow every download).
  async function record(type, id) {
    return withDatabase((database) => new Promise((resolve, reject) => {
      const walk = database.transaction("records").objectStore("records").index("by_type").openCursor(type);
      walk.onsuccess = () => {
        const cursor = walk.result;
        if (!cursor || cursor.value.id === id) return resolve(cursor ? cursor.value : null);
        cursor.continue();
      };
      walk.onerror = () => reject(walk.error);
    }));
  }

  /// The data of the device's copy of the record of `type` with `uuid`, or null: the copy's own key.
  async function recordByUUID(type, uuid) {
    return withDatabase(async (database) => {
      const kept = await request(database.transaction("records").objectStore("records").get([type, uuid]));
      return kept ? kept.data : null;
    });
  }

  /// Keeps changes made offline, in order, in one transaction: each is
  /// {mutation: {type, op, uuid, base_revision, fields}, summary, detail, page, at}. Answers their ids.
  async function enqueue(entries) {
    return withDatabase(async (database) => {
      const transaction = database.transaction("queue", "readwrite");
      const queue = transaction.objectStore("queue");
      const ids = await Promise.all(entries.map((entry) => request(queue.add(entry))));
      await finished(transaction);
      return ids;
    });
  }

  /// The changes still to send and those the server refused, oldest first.
  async function changes() {
    return withDatabase(async (database) => {
      const transaction = database.transaction(["queue", "problems"]);
      const [waiting, refused] = await Promise.all([
        request(transaction.objectStore("queue").getAll()),
        request(transaction.objectStore("problems").getAll()),
      ]);
      return { waiting, refused };
    });
  }

  /// Forgets a refused change the person has read.
  async function dismiss(id) {
    return withDatabase(async (database) => {
      const transaction = database.transaction("problems", "readwrite");
      transaction.objectStore("problems").delete(id);
      await finished(transaction);
    });
  }

  function newUUID() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  function csrfToken() {
    const cookie = document.cookie.split("; ").find((part) => part.startsWith("locify_csrf="));
    if (cookie) return decodeURIComponent(cookie.slice("locify_csrf=".length));
    const field = document.querySelector("input[name=_csrf]");
    return field ? field.value : "";
  }

  /// Sends the changes waiting, 500 at a time, through `POST /api/sync`. A change leaves the queue only
  /// when the server answered for it: applied, a duplicate (a push whose answer was lost, sent again:
  /// the server applies nothing twice) or merged; refused and conflicting ones move to the problems the
  /// page shows. A push cut off keeps everything for the next try. Answers how many were answered.
  async function push(url) {
    const database = await open();
    let answered = 0;
    try {
      let clientId = await request(database.transaction("meta").objectStore("meta").get("clientId"));
      if (!clientId) {
        clientId = newUUID();
        const naming = database.transaction("meta", "readwrite");
        naming.objectStore("meta").put(clientId, "clientId");
        await finished(naming);
      }
      for (;;) {
        const entries = await request(database.transaction("queue").objectStore("queue").getAll(null, 500));
        if (entries.length === 0) break;
        const body = {
          client_id: clientId,
          mutations: entries.map((entry) => ({ id: entry.id, ...entry.mutation })),
        };
        const response = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrfToken() },
          body: JSON.stringify(body),
        });
        let results;
        if (response.status === 422) {
          // The push as a whole was refused (a change this script should never have made): each change
          // is shown with the reason rather than blocking the ones after it for ever.
          const reason = await response.json().catch(() => ({}));
          const message = (reason.error && reason.error.message) || "The server could not read this change.";
          results = entries.map((entry) => ({ id: entry.id, status: "rejected", errors: [{ field: null, message }] }));
        } else if (!response.ok) {
          throw new Error(`the push answered ${response.status}`);
        } else {
          results = (await response.json()).results;
        }
        const transaction = database.transaction(["queue", "problems"], "readwrite");
        const queue = transaction.objectStore("queue");
        const problems = transaction.objectStore("problems");
        const byID = new Map(entries.map((entry) => [entry.id, entry]));
        let saved = 0;
        for (const result of results) {
          const entry = byID.get(result.id);
          if (!entry) continue;
          queue.delete(entry.id);
          if (result.status === "rejected" || result.status === "conflict") {
            problems.put({ ...entry, status: result.status, errors: result.errors || [], answeredAt: new Date().toISOString() });
          } else {
            saved += 1;
          }
        }
        await finished(transaction);
        answered += results.length;
        window.dispatchEvent(new CustomEvent("locify:changes", { detail: { saved } }));
      }
    } finally {
      database.close();
    }
    return answered;
  }

  function status(text) {
    const element = document.getElementById("offline-sync");
    if (!element) return;
    element.textContent = text;
    element.hidden = false;
  }

  function describe(found) {
    const total = Object.values(found.counts).reduce((sum, count) => sum + count, 0);
    const when = found.syncedAt
      ? new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(found.syncedAt))
      : "not yet complete";
    const kept = keptPages == null ? found.pages : keptPages;
    const pages = kept == null ? "" : ` and ${kept.toLocaleString()} pages`;
    return `Saved on this device: ${total.toLocaleString()} records${pages}, brought up to date ${when}.`;
  }
  let keptPages = null;

  let running = null;
  /// One pull at a time per page, and, where the browser can tell, per device (tabs take turns).
  function sync() {
    const root = document.documentElement;
    const account = root.dataset.account;
    const url = root.dataset.syncUrl;
    if (!account || !url || !("indexedDB" in window)) return Promise.resolve();
    if (running) return running;
    const work = async () => {
      try {
        // Changes made offline first: the pull then brings them back as the server stored them.
        await push(url);
        const pulled = await pull(
          url, account, (count) => status(`Saving your data on this device: ${count.toLocaleString()} records…`));
        if (root.dataset.offlinePlanUrl) {
          await keepPages(root.dataset.offlinePlanUrl, pulled);
          await keepSharedPages(root.dataset.offlinePlanUrl);
        }
      } catch {
        // Offline, or the server is down: the copy stays as it was, and says how old it is.
      }
      try {
        status(describe(await summary()));
      } catch {
        // IndexedDB unavailable (a private window that refuses it): nothing is kept, nothing to say.
      }
    };
    const locked = navigator.locks ? navigator.locks.request("locify-sync", work) : work();
    running = locked.finally(() => { running = null; });
    return running;
  }

  function start() {
    if (!document.documentElement.dataset.account) return;
    if (navigator.serviceWorker) {
      navigator.serviceWorker.addEventListener("message", async (event) => {
        const message = event.data || {};
        if (message.type !== "pages-kept") return;
        if (message.kept == null) {
          status(`Saving pages for offline use: ${message.done.toLocaleString()} of ${message.total.toLocaleString()}…`);
          return;
        }
        keptPages = message.kept;
        if (message.complete) await notePagesKept(message.kept).catch(() => {});
        try {
          status(describe(await summary()));
        } catch {
          // Nothing to add to what the footer says.
        }
      });
    }
    sync();
    window.addEventListener("online", sync);
    setInterval(sync, every);
  }

  /// Asks the worker to keep these pages afresh: for a change the sync feed does not carry (a map area).
  function refreshPages(paths) {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "keep-pages", refresh: paths });
  }

  /// The text of a page the service worker kept (gzipped, as sw.js keeps them; or not, by an earlier one).
  async function pageText(response) {
    if (response.headers.get("X-Locify-Compressed") !== "gzip") return response.text();
    return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).text();
  }

  /// The server's plan of which pages show which records, as last asked, or null.
  function plan() {
    try {
      return JSON.parse(localStorage.getItem(PLAN_KEY) || "null");
    } catch {
      return null;
    }
  }

  return { start, close, sync, summary, all, record, recordByUUID, enqueue, changes, dismiss, newUUID, csrfToken, refreshPages, plan, pageText };
})();
document.addEventListener("DOMContentLoaded", LocifyStore.start);

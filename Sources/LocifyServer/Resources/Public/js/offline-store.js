// The signed-in account's data kept on this device, in IndexedDB, through the sync feed (`GET /api/sync`):
// the whole account at the first visit, then only what changed, on each page load, when the network comes
// back and every few minutes while a page is open. Offline search and offline changes read it.
// Progressive enhancement only: pages work without it.
const LocifyStore = (() => {
  const databaseName = "locify";
  const pageSize = 500;
  const every = 5 * 60 * 1000;
  // How often the worker checks every page of the account is kept (pages evicted, a download cut short),
  // when no sync brought a change.
  const checkPagesEvery = 60 * 60 * 1000;

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

  function open() {
    const opening = indexedDB.open(databaseName, 1);
    opening.onupgradeneeded = () => {
      const database = opening.result;
      // One record of the feed per type and uuid, as the feed sent it: {type, uuid, id, revision, data}.
      const records = database.createObjectStore("records", { keyPath: ["type", "uuid"] });
      records.createIndex("by_type", "type");
      // What the copy is: whose, up to which cursor, when it was last brought up to date.
      database.createObjectStore("meta");
    };
    return request(opening);
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
    const database = await open();
    try {
      const transaction = database.transaction("meta", "readwrite");
      transaction.objectStore("meta").put({ at: new Date().toISOString(), count }, "pagesKept");
      await finished(transaction);
    } finally {
      database.close();
    }
  }

  async function forget(database, account) {
    const transaction = database.transaction(["records", "meta"], "readwrite");
    transaction.objectStore("records").clear();
    const store = transaction.objectStore("meta");
    store.clear();
    store.put(account, "account");
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
          await forget(database, account);
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

  /// The ids of every record of `type` the copy holds.
  async function ids(type) {
    return (await all(type)).map((data) => data.id);
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
    const plan = (await response.json()).types;
    const pageOf = (type, id) => (plan[type] && plan[type].page && id != null ? plan[type].page.replace("{id}", id) : null);
    const everyPage = async (type) => (await ids(type)).map((id) => pageOf(type, id)).filter(Boolean);
    const ensure = new Set();
    for (const [type, kind] of Object.entries(plan)) {
      for (const list of kind.lists) ensure.add(list);
      if (kind.page) for (const page of await everyPage(type)) ensure.add(page);
    }
    const refresh = new Set(pulled.fresh ? ensure : []);
    const drop = new Set();
    const everyPageOf = new Set();
    for (const { type, data, deleted } of pulled.fresh ? [] : pulled.touched) {
      const kind = plan[type];
      if (!kind) continue;
      for (const list of kind.lists) refresh.add(list);
      const own = pageOf(type, data.id);
      if (own) (deleted ? drop : refresh).add(own);
      if (kind.parent) {
        const parent = pageOf(kind.parent.type, dig(data, kind.parent.key));
        if (parent) refresh.add(parent);
      }
      if (kind.every_page_of) everyPageOf.add(kind.every_page_of);
    }
    for (const type of everyPageOf) for (const page of await everyPage(type)) refresh.add(page);
    for (const page of drop) refresh.delete(page);
    worker.postMessage({ type: "keep-pages", refresh: [...refresh], ensure: [...ensure], drop: [...drop] });
  }

  /// How many records of each type the copy holds, and when it was last brought up to date.
  async function summary() {
    const database = await open();
    try {
      const known = await meta(database);
      return {
        account: known.account, syncedAt: known.syncedAt, pages: known.pagesKept ? known.pagesKept.count : null,
        counts: await countByType(database),
      };
    } finally {
      database.close();
    }
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
    const database = await open();
    try {
      const records = await request(
        database.transaction("records").objectStore("records").index("by_type").getAll(type));
      return records.map((record) => record.data);
    } finally {
      database.close();
    }
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
        const pulled = await pull(
          url, account, (count) => status(`Saving your data on this device: ${count.toLocaleString()} records…`));
        if (root.dataset.offlinePlanUrl) await keepPages(root.dataset.offlinePlanUrl, pulled);
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

  return { start, sync, summary, all };
})();
document.addEventListener("DOMContentLoaded", LocifyStore.start);

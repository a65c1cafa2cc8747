// Map areas kept for offline use (the map page's form, Settings → Map areas): the box in view and what it
// would take, saving it through /api/map-areas, and keeping its tiles on this device. The area's PMTiles
// archive is read here and each tile put in the area's own cache (`locify-area-<id>`) under the address
// the map widget asks for it, where the service worker finds it when the server cannot be reached.
"use strict";

const LocifyAreas = (() => {
  const CACHE_PREFIX = "locify-area-";
  // The entry that says an area is complete on this device, and what it holds.
  const COMPLETE = "/__locify-area-complete";
  const TYPES = { 0: "image/svg+xml", 2: "image/png", 3: "image/jpeg", 4: "image/webp", 5: "image/avif" };

  function reader(bytes) {
    let position = 0;
    return () => {
      let value = 0;
      let scale = 1;
      for (;;) {
        if (position >= bytes.length) throw new Error("The area's archive is cut short.");
        const byte = bytes[position++];
        value += (byte & 0x7f) * scale;
        if (byte < 0x80) return value;
        scale *= 128;
      }
    };
  }

  async function gunzip(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  /// The entries of one directory: tile id, offset, length and run length (0: a leaf directory).
  async function directory(buffer, start, length, gzipped) {
    let bytes = new Uint8Array(buffer, start, length);
    if (gzipped) bytes = await gunzip(bytes);
    const next = reader(bytes);
    const count = next();
    const entries = [];
    let id = 0;
    for (let i = 0; i < count; i++) { id += next(); entries.push({ id, runLength: 0, length: 0, offset: 0 }); }
    for (const entry of entries) entry.runLength = next();
    for (const entry of entries) entry.length = next();
    entries.forEach((entry, i) => {
      const value = next();
      entry.offset = value === 0 && i > 0 ? entries[i - 1].offset + entries[i - 1].length : value - 1;
    });
    return entries;
  }

  /// The tile of a PMTiles id: the zoom's first id, then the Hilbert curve (in arithmetic: ids pass 2³²).
  function tileOf(id) {
    let zoom = 0;
    let base = 0;
    while (id >= base + 4 ** zoom) { base += 4 ** zoom; zoom++; }
    let position = id - base;
    let x = 0;
    let y = 0;
    for (let step = 1; step < 2 ** zoom; step *= 2) {
      const rx = Math.floor(position / 2) % 2;
      const ry = (position % 2) ^ rx;
      if (ry === 0) {
        if (rx === 1) { x = step - 1 - x; y = step - 1 - y; }
        [x, y] = [y, x];
      }
      x += step * rx;
      y += step * ry;
      position = Math.floor(position / 4);
    }
    return { z: zoom, x, y };
  }

  /// Every tile of a PMTiles archive: where its bytes are, and its type.
  async function read(buffer) {
    const view = new DataView(buffer);
    const magic = new TextDecoder().decode(new Uint8Array(buffer, 0, 7));
    if (magic !== "PMTiles" || view.getUint8(7) !== 3) throw new Error("The area's archive is not PMTiles version 3.");
    const number = (at) => Number(view.getBigUint64(at, true));
    const gzipped = view.getUint8(97) === 2;
    const leaves = number(40);
    const data = number(56);
    const tiles = [];
    async function walk(start, length) {
      for (const entry of await directory(buffer, start, length, gzipped)) {
        if (entry.runLength === 0) { await walk(leaves + entry.offset, entry.length); continue; }
        for (let i = 0; i < entry.runLength; i++) {
          tiles.push({ ...tileOf(entry.id + i), offset: data + entry.offset, length: entry.length });
        }
      }
    }
    await walk(number(8), number(16));
    return { tiles, type: TYPES[view.getUint8(99)] || "application/octet-stream" };
  }

  const cacheName = (id) => CACHE_PREFIX + id;
  // The service worker keeps the list of area caches it looks through for a tile.
  const told = () => navigator.serviceWorker?.controller?.postMessage({ type: "areas-changed" });

  /// Keeps `area` (as /api/map-areas answers it) on this device; `progress(done, total)` as it goes.
  async function keep(area, progress) {
    const response = await fetch(new URL(area.pmtiles_url, location.href).pathname, { headers: { Accept: "application/vnd.pmtiles" } });
    if (!response.ok) throw new Error(`The server did not give the area's map (${response.status}).`);
    const buffer = await response.arrayBuffer();
    const { tiles, type } = await read(buffer);
    // Kept afresh: a download cut off before left part of an area.
    await caches.delete(cacheName(area.id));
    const cache = await caches.open(cacheName(area.id));
    const batch = 64;
    for (let start = 0; start < tiles.length; start += batch) {
      await Promise.all(tiles.slice(start, start + batch).map((tile) => {
        const path = area.tile_path.replace("{z}", tile.z).replace("{x}", tile.x).replace("{y}", tile.y);
        const body = buffer.slice(tile.offset, tile.offset + tile.length);
        return cache.put(path, new Response(body, { headers: { "Content-Type": type } }));
      }));
      if (progress) progress(Math.min(start + batch, tiles.length), tiles.length);
    }
    const summary = { name: area.name, tiles: tiles.length, bytes: buffer.byteLength, savedAt: new Date().toISOString() };
    await cache.put(COMPLETE, new Response(JSON.stringify(summary), { headers: { "Content-Type": "application/json" } }));
    told();
    return summary;
  }

  /// What this device holds of the area, or null.
  async function status(id) {
    if (!("caches" in window) || !(await caches.has(cacheName(id)))) return null;
    const kept = await (await caches.open(cacheName(id))).match(COMPLETE);
    return kept ? kept.json() : null;
  }

  async function remove(id) {
    if ("caches" in window) await caches.delete(cacheName(id));
    told();
  }

  return { keep, status, remove, read, tileOf };
})();

(() => {
  const megabytes = (bytes) => bytes < 100000 ? `${Math.max(1, Math.round(bytes / 1000))} KB` : `${(bytes / 1e6).toFixed(1)} MB`;
  const count = (value) => Number(value).toLocaleString();
  const errorText = async (response) => {
    try {
      const message = (await response.json()).error.message;
      return Array.isArray(message) ? message.join(" ") : String(message);
    } catch {
      return `The server answered ${response.status}.`;
    }
  };
  const send = (url, body) => fetch(url, {
    method: "POST", credentials: "same-origin", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": LocifyStore.csrfToken() },
  });

  function enhanceForm(form) {
    const estimate = form.querySelector("[data-area-estimate]");
    const progress = form.querySelector("[data-area-progress]");
    const edges = Object.fromEntries([...form.querySelectorAll("[data-area-edge]")].map((input) => [input.dataset.areaEdge, input]));
    const zoomSelect = form.elements.max_zoom;
    const body = () => {
      const value = (name) => edges[name].value.trim() === "" ? null : Number(edges[name].value);
      return {
        name: form.elements.name.value, max_zoom: Number(zoomSelect.value),
        south: value("south"), west: value("west"), north: value("north"), east: value("east"),
      };
    };
    let timer = null;
    let asked = 0;
    async function estimateNow() {
      const wanted = body();
      if (["south", "west", "north", "east"].some((edge) => wanted[edge] === null)) { estimate.textContent = ""; return; }
      const ticket = ++asked;
      try {
        const response = await send(form.dataset.estimateUrl, wanted);
        if (ticket !== asked) return;
        if (!response.ok) { estimate.textContent = await errorText(response); return; }
        const { data } = await response.json();
        const size = `${count(data.tile_count)} tiles, about ${megabytes(data.estimated_bytes)}`;
        estimate.textContent = data.max_zoom < wanted.max_zoom
          ? `This box is too big for zoom ${wanted.max_zoom}: it would be kept to zoom ${data.max_zoom} (${size}). Zoom the map in to keep more detail.`
          : `To zoom ${data.max_zoom}: ${size}.`;
      } catch {
        if (ticket === asked) estimate.textContent = "The estimate needs the server, which cannot be reached.";
      }
    }
    const later = () => { clearTimeout(timer); timer = setTimeout(estimateNow, 300); };
    form.addEventListener("input", later);
    form.addEventListener("change", later);
    const map = form.dataset.mapAreaForm ? document.getElementById(form.dataset.mapAreaForm) : null;
    if (map && map.locifyMap) followMap(map.locifyMap);
    else later();

    // On the map page the box is the map's view as it moves, until one is drawn on the map or typed:
    // that box stays, outlined, until "Use the box in view".
    function followMap(widget) {
      const box = form.querySelector(".map-area-box");
      const how = document.createElement("p");
      how.className = "map-area-how";
      how.setAttribute("aria-live", "polite");
      const drawButton = document.createElement("button");
      drawButton.type = "button";
      drawButton.textContent = "Draw a box on the map";
      const viewButton = document.createElement("button");
      viewButton.type = "button";
      viewButton.textContent = "Use the box in view";
      const buttons = document.createElement("p");
      buttons.className = "map-area-actions";
      buttons.append(drawButton, viewButton);
      box.after(buttons, how);
      let following = true;
      const showFollowing = (on, text) => {
        following = on;
        viewButton.hidden = on;
        how.textContent = text;
      };
      const fill = () => {
        if (!following) return;
        const bounds = widget.bounds;
        for (const name of ["south", "west", "north", "east"]) edges[name].value = bounds[name].toFixed(5);
        later();
      };
      map.addEventListener("locify:moved", () => { if (form.closest("details")?.open !== false) fill(); });
      form.closest("details")?.addEventListener("toggle", fill);
      drawButton.addEventListener("click", () => {
        widget.drawBox((drawn) => {
          for (const name of ["south", "west", "north", "east"]) edges[name].value = drawn[name].toFixed(5);
          showFollowing(false, "The box drawn on the map. Draw again to change it.");
          later();
        });
        how.textContent = "Press and drag on the map to draw the box (Escape to give up).";
        map.scrollIntoView({ block: "nearest" });
        map.focus({ preventScroll: true });
      });
      viewButton.addEventListener("click", () => {
        widget.stopDrawing();
        widget.draft = null;
        showFollowing(true, "");
        fill();
      });
      // Edges typed by hand are kept too, and outlined when they make a box.
      form.addEventListener("input", (event) => {
        if (!event.target.dataset.areaEdge) return;
        showFollowing(false, "The box typed below.");
        const wanted = body();
        const complete = ["south", "west", "north", "east"].every((edge) => Number.isFinite(wanted[edge]));
        widget.draft = complete && wanted.south < wanted.north && wanted.west < wanted.east ? wanted : null;
      });
      viewButton.hidden = true;
      fill();
    }

    if (!("caches" in window)) return;  // saved by the server alone; its tiles stay there
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      progress.textContent = "Saving the area…";
      try {
        const response = await send(form.dataset.areasUrl, body());
        if (!response.ok) { progress.textContent = await errorText(response); return; }
        const { data: area } = await response.json();
        progress.textContent = `Keeping “${area.name}” on this device: drawing its ${count(area.tile_count)} tiles…`;
        const kept = await LocifyAreas.keep(area, (done, total) => {
          progress.textContent = `Keeping “${area.name}” on this device: ${count(done)} of ${count(total)} tiles…`;
        });
        progress.textContent = `Saved “${area.name}” on this device: ${count(kept.tiles)} tiles, ${megabytes(kept.bytes)}. The map shows it with no network; Settings → Map areas lists it.`;
        progress.dataset.savedArea = area.id;
        if (map && map.locifyMap) {
          const outlines = JSON.parse(map.dataset.areas || "[]");
          outlines.push({ name: area.name, south: area.south, west: area.west, north: area.north, east: area.east });
          map.dataset.areas = JSON.stringify(outlines);
          map.locifyMap.outline(outlines);
        }
        // The map page kept on this device shows the new outline too.
        LocifyStore.refreshPages([form.dataset.mapUrl]);
      } catch (error) {
        progress.textContent = error instanceof TypeError
          ? "The server cannot be reached: an area is saved while online."
          : `The area could not be kept on this device: ${error.message}`;
      } finally {
        button.disabled = false;
      }
    });
  }

  async function enhanceRow(row) {
    const id = row.dataset.mapArea;
    const state = row.querySelector("[data-area-device]");
    const keepButton = row.querySelector("[data-area-keep]");
    if (!("caches" in window)) return;
    const show = async () => {
      const kept = await LocifyAreas.status(id);
      keepButton.hidden = Boolean(kept);
      state.textContent = kept
        ? `On this device: ${count(kept.tiles)} tiles, ${megabytes(kept.bytes)}, kept ${new Date(kept.savedAt).toLocaleString()}.`
        : "Not kept on this device.";
      row.dataset.onDevice = kept ? "yes" : "no";
    };
    keepButton.addEventListener("click", async () => {
      keepButton.disabled = true;
      try {
        const response = await fetch(row.dataset.areaUrl, { headers: { Accept: "application/json" } });
        if (!response.ok) throw new Error(await errorText(response));
        const { data: area } = await response.json();
        await LocifyAreas.keep(area, (done, total) => { state.textContent = `Keeping ${count(done)} of ${count(total)} tiles…`; });
        await show();
      } catch (error) {
        state.textContent = error instanceof TypeError
          ? "The server cannot be reached: an area is kept while online."
          : `The area could not be kept on this device: ${error.message}`;
      } finally {
        keepButton.disabled = false;
      }
    });
    // Deleting an area removes this device's copy first; the form then goes as usual.
    const remove = row.querySelector("[data-area-delete]");
    remove?.addEventListener("submit", async (event) => {
      event.preventDefault();
      await LocifyAreas.remove(id);
      // The kept map page loses the outline once the server has deleted the area (the next page asks).
      sessionStorage.setItem("locify-refresh-map", "1");
      HTMLFormElement.prototype.submit.call(remove);
    });
    await show();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const mapPage = document.querySelector("[data-map-url]");
    if (mapPage && sessionStorage.getItem("locify-refresh-map")) {
      sessionStorage.removeItem("locify-refresh-map");
      LocifyStore.refreshPages([mapPage.dataset.mapUrl]);
    }
    for (const form of document.querySelectorAll("form.map-area-form")) enhanceForm(form);
    for (const row of document.querySelectorAll("[data-map-area]")) enhanceRow(row);
  });
})();

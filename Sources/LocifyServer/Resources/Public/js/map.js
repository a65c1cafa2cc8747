// The map widget: tiles from the server's proxy, falling back tile by tile to the server's basemap, so a
// map always shows. Drag or touch to pan; wheel, pinch or the +/− buttons to zoom; arrow keys and +/− when
// the map has focus. Markers are buttons that open a popup; markers closer than a finger's width at the
// current zoom are drawn as one numbered cluster, which zooms in when pressed. Optional behaviours, each
// asked for by a data attribute on the container:
//   data-pick="lat-id,lon-id"  a pin that a tap or a drag moves, kept in those two inputs (and following them);
//   data-explore="url"         tapping the map opens a popup for that point, with links to url?lat=…&lon=…;
//   data-locate                centre on the person's position when the browser may tell it (else the last
//                              one known), with a "My location" button that asks;
//   data-areas="[…]"           outlines of the areas kept for offline use ({name, south, west, north, east}).
// Each move sends `locify:moved` from the container; `bounds` says what is in view. `drawBox(done)` lets the
// next press and drag draw a box instead of panning (Escape gives up); `draft` outlines a box not saved yet.
// No outside script: it is all here.
const LocifyMap = (() => {
  const TILE = 256;
  const MAX_ZOOM = 19;
  const CLUSTER_PX = 44;
  const project = (lat, lon, zoom) => {
    const n = TILE * 2 ** zoom;
    const clamped = Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI / 180;
    return { x: (lon + 180) / 360 * n, y: (1 - Math.asinh(Math.tan(clamped)) / Math.PI) / 2 * n };
  };
  const unproject = (x, y, zoom) => {
    const n = TILE * 2 ** zoom;
    const lon = x / n * 360 - 180;
    const lat = Math.atan(Math.sinh(Math.PI * (1 - 2 * y / n))) * 180 / Math.PI;
    return { lat, lon: ((lon + 540) % 360) - 180 };
  };
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  };
  const rounded = LocifyPosition.rounded;

  function create(container) {
    const markers = JSON.parse(container.dataset.markers || "[]");
    const tiles = container.dataset.tiles || "";
    const basemap = container.dataset.basemap;
    const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    const tileURL = (template, z, x, y) => template.replace("{z}", z).replace("{x}", x).replace("{y}", y);
    const fallbackURL = (z, x, y) => tileURL(basemap, z, x, y) + (dark ? "?palette=dark" : "");

    container.replaceChildren();
    container.classList.add("map-live");
    container.tabIndex = 0;
    container.setAttribute("role", "application");
    container.setAttribute("aria-roledescription", "map");
    container.setAttribute("aria-label", container.dataset.label || "Map");
    const layer = element("div", "map-tiles");
    const outlines = element("div", "map-areas");
    outlines.setAttribute("aria-hidden", "true");
    const pins = element("div", "map-markers");
    const popup = element("div", "map-popup");
    popup.hidden = true;
    popup.setAttribute("role", "dialog");
    const controls = element("div", "map-controls");
    const zoomIn = element("button", "map-zoom-in", "+");
    const zoomOut = element("button", "map-zoom-out", "−");
    zoomIn.type = zoomOut.type = "button";
    zoomIn.setAttribute("aria-label", "Zoom in");
    zoomOut.setAttribute("aria-label", "Zoom out");
    controls.append(zoomIn, zoomOut);
    const attribution = element("p", "map-attribution",
      tiles ? "© OpenStreetMap contributors · Natural Earth · GeoNames" : "Natural Earth · GeoNames");
    // Approximate pins (a geocoder that knew only the city) are drawn over the area they may be in.
    const circles = element("div", "map-areas map-circles");
    circles.setAttribute("aria-hidden", "true");
    // Where the street map cannot be had (no tile server, or none reachable: offline), the bundled basemap
    // draws coasts, borders and cities; at street zooms that is little, and the map says why.
    const notice = element("p", "map-notice");
    notice.setAttribute("role", "status");
    notice.hidden = true;
    container.append(layer, circles, outlines, pins, popup, controls, notice, attribution);
    let areas = [];
    // The box being chosen (drawn or typed), outlined apart from the saved ones.
    const draftBox = element("div", "map-area-draft");
    let draft = null;
    function outline(areaList) {
      outlines.replaceChildren(draftBox);
      areas = areaList.map((area) => {
        const box = element("div", "map-area-outline");
        box.title = area.name;
        outlines.append(box);
        return { area, box };
      });
    }
    outline(JSON.parse(container.dataset.areas || "[]"));

    let zoom = Number(container.dataset.zoom || 13);
    let center = { x: 0, y: 0 };
    const size = () => ({ width: container.clientWidth, height: container.clientHeight });
    const hiddenLayers = new Set();
    const visible = () => placed.filter(({ marker }) => !hiddenLayers.has(marker.layer || ""));

    function fitPoints(points) {
      if (points.length === 0) { zoom = 1; center = project(20, 0, zoom); return; }
      if (points.length === 1) { center = project(points[0].lat, points[0].lon, zoom); return; }
      const { width, height } = size();
      for (zoom = MAX_ZOOM - 3; zoom > 1; zoom--) {
        const projected = points.map((m) => project(m.lat, m.lon, zoom));
        const xs = projected.map((p) => p.x), ys = projected.map((p) => p.y);
        if (Math.max(...xs) - Math.min(...xs) < width - 60 && Math.max(...ys) - Math.min(...ys) < height - 60) {
          center = { x: (Math.max(...xs) + Math.min(...xs)) / 2, y: (Math.max(...ys) + Math.min(...ys)) / 2 };
          return;
        }
      }
      center = project(20, 0, zoom);
    }
    const focus = container.dataset.focus;
    const fit = () => {
      const focused = focus ? markers.filter((marker) => marker.layer === focus) : [];
      if (focused.length > 0) {
        fitPoints(focused);
        // One result alone opens at a street's zoom, not the widest that fits it.
        if (focused.length === 1) {
          zoom = Math.min(zoom, 15);
          center = project(focused[0].lat, focused[0].lon, zoom);
        }
        return;
      }
      if (container.hasAttribute("data-centre-first") && markers.length > 0) {
        zoom = Number(container.dataset.zoom || 15);
        center = project(markers[0].lat, markers[0].lon, zoom);
        return;
      }
      fitPoints(visible().map(({ marker }) => marker).concat(pick && pick.point ? [pick.point] : []));
    };

    // Clusters are worked out again only when the zoom or the layers change; panning just moves them.
    let clusters = [];
    let clusteredAt = null;
    function regroup() {
      for (const cluster of clusters) cluster.button.remove();
      clusters = [];
      // Pins closer than CLUSTER_PX to a group's first pin join it, whichever grid cell they fall in: two pins
      // either side of a cell's edge would otherwise overlap, too close to tell apart or to tap.
      const cells = new Map();
      const groups = [];
      for (const entry of placed) {
        entry.pin.hidden = true;
        if (hiddenLayers.has(entry.marker.layer || "")) continue;
        // The results the page is about each stay a pin of their own.
        if (focus && entry.marker.layer === focus) { entry.pin.hidden = false; continue; }
        const point = project(entry.marker.lat, entry.marker.lon, zoom);
        const cellX = Math.floor(point.x / CLUSTER_PX), cellY = Math.floor(point.y / CLUSTER_PX);
        let group = null;
        for (let dx = -1; dx <= 1 && !group; dx++) {
          for (let dy = -1; dy <= 1 && !group; dy++) {
            group = (cells.get(`${cellX + dx}:${cellY + dy}`) || [])
              .find(({ seed }) => Math.hypot(seed.x - point.x, seed.y - point.y) < CLUSTER_PX) || null;
          }
        }
        if (!group) {
          group = { seed: point, members: [] };
          groups.push(group);
          const key = `${cellX}:${cellY}`;
          if (!cells.has(key)) cells.set(key, []);
          cells.get(key).push(group);
        }
        group.members.push(entry);
      }
      for (const { members } of groups) {
        if (members.length === 1 || zoom >= MAX_ZOOM) { for (const entry of members) entry.pin.hidden = false; continue; }
        // At its first pin: first pins are at least CLUSTER_PX apart, so no two targets crowd each other.
        const { lat, lon } = members[0].marker;
        const button = element("button", "map-cluster", String(members.length));
        button.type = "button";
        button.setAttribute("aria-label", `${members.length} places here; zoom in to see them`);
        button.addEventListener("click", (event) => {
          event.stopPropagation();
          // In to show its places together, and at least one step in: clusters within it come apart in turn.
          const before = zoom;
          fitPoints(members.map(({ marker }) => marker));
          if (zoom <= before) { zoom = Math.min(before + 1, MAX_ZOOM); center = project(lat, lon, zoom); }
          popup.hidden = true;
          draw();
        });
        pins.append(button);
        clusters.push({ button, lat, lon });
      }
      clusteredAt = zoom;
    }

    const shown = new Map();
    function draw() {
      const { width, height } = size();
      const count = 2 ** zoom;
      const left = center.x - width / 2, top = center.y - height / 2;
      const wanted = new Set();
      for (let tx = Math.floor(left / TILE); tx <= Math.floor((left + width) / TILE); tx++) {
        for (let ty = Math.max(0, Math.floor(top / TILE)); ty <= Math.min(count - 1, Math.floor((top + height) / TILE)); ty++) {
          const x = ((tx % count) + count) % count;
          const key = `${zoom}/${tx}/${ty}`;
          wanted.add(key);
          let img = shown.get(key);
          if (!img) {
            // The tile's own zoom: by the time a tile fails, the map may show another.
            const z = zoom;
            const tile = element("img", "map-tile");
            img = tile;
            tile.alt = "";
            tile.decoding = "async";
            tile.addEventListener("error", () => {
              if (!tile.dataset.fallback) {
                tile.dataset.fallback = "1";
                tile.src = fallbackURL(z, x, ty);
                explain();
              }
            });
            img.src = tiles ? tileURL(tiles, z, x, ty) : fallbackURL(z, x, ty);
            if (!tiles) img.dataset.fallback = "1";
            shown.set(key, img);
            layer.append(img);
          }
          img.style.left = `${Math.round(tx * TILE - left)}px`;
          img.style.top = `${Math.round(ty * TILE - top)}px`;
        }
      }
      for (const [key, img] of shown) if (!wanted.has(key)) { img.remove(); shown.delete(key); }
      explain();
      if (clusteredAt !== zoom) regroup();
      // What lies outside the view is kept out of reach too: no tabbing to, or tapping near, a pin one cannot see.
      const place = (node, lat, lon) => {
        const point = project(lat, lon, zoom);
        const x = Math.round(point.x - left), y = Math.round(point.y - top);
        node.style.left = `${x}px`;
        node.style.top = `${y}px`;
        node.style.visibility = x < -40 || y < -40 || x > width + 40 || y > height + 40 ? "hidden" : "";
      };
      const frame = (box, area) => {
        const corner = project(area.north, area.west, zoom);
        const far = project(area.south, area.east, zoom);
        box.style.left = `${Math.round(corner.x - left)}px`;
        box.style.top = `${Math.round(corner.y - top)}px`;
        box.style.width = `${Math.max(2, Math.round(far.x - corner.x))}px`;
        box.style.height = `${Math.max(2, Math.round(far.y - corner.y))}px`;
      };
      for (const { area, box } of areas) frame(box, area);
      draftBox.hidden = !draft;
      if (draft) frame(draftBox, draft);
      for (const { marker, pin } of placed) if (!pin.hidden) place(pin, marker.lat, marker.lon);
      for (const { marker, circle } of placed) {
        if (!circle) continue;
        circle.hidden = hiddenLayers.has(marker.layer || "");
        // Metres per pixel at this latitude and zoom (the Web Mercator tile pyramid).
        const metresPerPixel = 40075016.686 * Math.cos(marker.lat * Math.PI / 180) / (TILE * 2 ** zoom);
        const radius = Math.max(12, Math.min(4000, marker.radius / metresPerPixel));
        circle.style.width = circle.style.height = `${Math.round(radius * 2)}px`;
        circle.style.marginLeft = circle.style.marginTop = `${-Math.round(radius)}px`;
        place(circle, marker.lat, marker.lon);
      }
      for (const cluster of clusters) place(cluster.button, cluster.lat, cluster.lon);
      if (pick && pick.point) place(pick.pin, pick.point.lat, pick.point.lon);
      if (here) place(here.dot, here.lat, here.lon);
      container.dispatchEvent(new CustomEvent("locify:moved", { bubbles: true }));
    }

    /// Says so when the tiles in view are the basemap's at a zoom where it shows little.
    function explain() {
      const fallbacks = [...shown.values()].some((img) => img.dataset.fallback);
      const text = !fallbacks || zoom < 9 ? ""
        : !tiles ? "No street map on this server — showing cities"
        : navigator.onLine === false ? "Street map unavailable offline — showing cities"
        : "Street map unavailable — showing cities";
      if (notice.textContent !== text) notice.textContent = text;
      notice.hidden = text === "";
    }

    /// What is in view: its edges and zoom.
    function bounds() {
      const { width, height } = size();
      const northWest = unproject(center.x - width / 2, Math.max(0, center.y - height / 2), zoom);
      const southEast = unproject(center.x + width / 2, Math.min(TILE * 2 ** zoom, center.y + height / 2), zoom);
      // A view wider than the world, or across the 180° meridian, keeps to the world's width.
      const wide = width >= TILE * 2 ** zoom || northWest.lon > southEast.lon;
      return {
        north: northWest.lat, south: southEast.lat, zoom,
        west: wide ? -180 : northWest.lon, east: wide ? 180 : southEast.lon,
      };
    }

    // The markers are made once and only moved when the map moves, so one keeps its focus while panning.
    const placed = markers.map((marker) => {
      const pin = element("button", "map-marker" + (marker.layer ? ` map-marker-${marker.layer}` : ""));
      pin.type = "button";
      const label = marker.around ? `${marker.label}, ${marker.around}` : marker.label;
      pin.setAttribute("aria-label", label);
      pin.title = label;
      pin.addEventListener("click", (event) => { event.stopPropagation(); open(marker, pin); });
      pins.append(pin);
      let circle = null;
      if (marker.radius) {
        pin.classList.add("map-marker-approximate");
        circle = element("div", "map-circle" + (marker.layer ? ` map-circle-${marker.layer}` : ""));
        circles.append(circle);
      }
      return { marker, pin, circle };
    });

    function show(content, anchor, returnFocus) {
      popup.replaceChildren(...content);
      const close = element("button", "map-popup-close", "×");
      close.type = "button";
      close.setAttribute("aria-label", "Close");
      close.addEventListener("click", () => { popup.hidden = true; (returnFocus || container).focus(); });
      popup.append(close);
      popup.style.left = anchor.left;
      popup.style.top = anchor.top;
      popup.hidden = false;
      close.focus();
    }

    function open(marker, pin) {
      const content = [];
      if (marker.avatar) content.push(LocifyAvatars.make(marker.avatar));
      content.push(element("strong", "", marker.label));
      if (marker.detail) content.push(element("span", "", marker.detail));
      if (marker.around) content.push(element("span", "map-around", `Approximate: ${marker.around}`));
      if (marker.url) {
        const link = element("a", "", marker.linkText || "Open");
        link.href = marker.url;
        content.push(link);
      }
      show(content, { left: pin.style.left, top: pin.style.top }, pin);
    }

    function zoomBy(step, anchor) {
      const next = Math.max(1, Math.min(MAX_ZOOM, zoom + step));
      if (next === zoom) return;
      const { width, height } = size();
      const at = anchor || { x: width / 2, y: height / 2 };
      const world = { x: center.x - width / 2 + at.x, y: center.y - height / 2 + at.y };
      const scale = 2 ** (next - zoom);
      center = { x: world.x * scale - at.x + width / 2, y: world.y * scale - at.y + height / 2 };
      zoom = next;
      popup.hidden = true;
      draw();
    }
    const panBy = (dx, dy) => { center = { x: center.x + dx, y: center.y + dy }; draw(); };
    const pointAt = (clientX, clientY) => {
      const box = container.getBoundingClientRect();
      const { width, height } = size();
      return unproject(center.x - width / 2 + clientX - box.left, center.y - height / 2 + clientY - box.top, zoom);
    };

    zoomIn.addEventListener("click", () => zoomBy(1));
    zoomOut.addEventListener("click", () => zoomBy(-1));
    container.addEventListener("keydown", (event) => {
      if (event.target !== container) return;
      if (event.key === "Escape" && drawing) { stopDrawing(); event.preventDefault(); return; }
      const step = 80;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (moves[event.key]) { panBy(...moves[event.key]); event.preventDefault(); }
      else if (event.key === "+" || event.key === "=") { zoomBy(1); event.preventDefault(); }
      else if (event.key === "-") { zoomBy(-1); event.preventDefault(); }
      else if (event.key === "Enter" && (pick || explore)) {
        // The keyboard's tap: the centre of the map.
        const { width, height } = size();
        const box = container.getBoundingClientRect();
        tapped(pointAt(box.left + width / 2, box.top + height / 2));
        event.preventDefault();
      }
    });
    let wheelLock = 0;
    container.addEventListener("wheel", (event) => {
      event.preventDefault();
      if (Date.now() - wheelLock < 250) return;
      wheelLock = Date.now();
      const box = container.getBoundingClientRect();
      zoomBy(event.deltaY < 0 ? 1 : -1, { x: event.clientX - box.left, y: event.clientY - box.top });
    }, { passive: false });

    // A press that ends where it began is a tap: it places the pin or opens the point's popup.
    const pointers = new Map();
    let pinchStart = 0;
    let pressedAt = null;
    let dragging = false;
    // Draw mode: the press is one corner of the box and the release the other.
    let drawing = null;
    const boxBetween = (a, b) => ({
      south: Math.min(a.lat, b.lat), north: Math.max(a.lat, b.lat),
      west: Math.min(a.lon, b.lon), east: Math.max(a.lon, b.lon),
    });
    function stopDrawing() {
      drawing = null;
      container.classList.remove("map-drawing");
    }
    container.addEventListener("pointerdown", (event) => {
      const onPin = pick && event.target === pick.pin;
      if (!onPin && event.target.closest("button, a, .map-popup")) return;
      container.setPointerCapture(event.pointerId);
      if (drawing) {
        drawing.from = pointAt(event.clientX, event.clientY);
        drawing.at = { x: event.clientX, y: event.clientY };
        drawing.pointer = event.pointerId;
        drawing.before = draft;
        return;
      }
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      pressedAt = pointers.size === 1 ? { x: event.clientX, y: event.clientY } : null;
      dragging = onPin;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinchStart = Math.hypot(a.x - b.x, a.y - b.y);
      }
    });
    container.addEventListener("pointermove", (event) => {
      if (drawing && drawing.pointer === event.pointerId) {
        draft = boxBetween(drawing.from, pointAt(event.clientX, event.clientY));
        draw();
        return;
      }
      const last = pointers.get(event.pointerId);
      if (!last) return;
      const now = { x: event.clientX, y: event.clientY };
      pointers.set(event.pointerId, now);
      if (pressedAt && Math.hypot(now.x - pressedAt.x, now.y - pressedAt.y) > 6) pressedAt = null;
      if (pointers.size === 1 && dragging) { pick.set(pointAt(now.x, now.y)); return; }
      if (pointers.size === 1) { panBy(last.x - now.x, last.y - now.y); return; }
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinchStart && Math.abs(Math.log2(distance / pinchStart)) >= 0.7) {
        const box = container.getBoundingClientRect();
        zoomBy(distance > pinchStart ? 1 : -1, { x: (a.x + b.x) / 2 - box.left, y: (a.y + b.y) / 2 - box.top });
        pinchStart = distance;
      }
    });
    const release = (event) => {
      if (drawing && drawing.pointer === event.pointerId) {
        const { from, at, before, done } = drawing;
        stopDrawing();
        // A tap is no box: draw mode stays for the drag.
        if (event.type === "pointerup" && Math.hypot(event.clientX - at.x, event.clientY - at.y) > 6) {
          draft = boxBetween(from, pointAt(event.clientX, event.clientY));
          draw();
          done(draft);
        } else {
          draft = before;
          draw();
          drawing = { done };
          container.classList.add("map-drawing");
        }
        return;
      }
      const wasTap = pressedAt && pointers.size === 1 && event.type === "pointerup";
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinchStart = 0;
      if (wasTap && !dragging) tapped(pointAt(event.clientX, event.clientY));
      if (pointers.size === 0) { dragging = false; pressedAt = null; }
    };
    container.addEventListener("pointerup", release);
    container.addEventListener("pointercancel", release);
    window.addEventListener("resize", draw);
    // A map in a closed <details> has no size until it opens.
    const folded = container.closest("details");
    if (folded) folded.addEventListener("toggle", () => { if (folded.open) { fit(); draw(); } });

    // Pick mode: the pin and the two inputs hold the same point.
    let pick = null;
    if (container.dataset.pick) {
      const [latInput, lonInput] = container.dataset.pick.split(",").map((id) => document.getElementById(id));
      if (latInput && lonInput) {
        const pin = element("button", "map-marker map-pick");
        pin.type = "button";
        pin.setAttribute("aria-label", "The chosen position; drag it, or tap the map, to move it");
        const read = () => {
          const lat = parseFloat(latInput.value), lon = parseFloat(lonInput.value);
          return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180
            ? { lat, lon } : null;
        };
        pick = {
          pin,
          point: read(),
          set(point) {
            this.point = { lat: rounded(point.lat), lon: rounded(point.lon) };
            latInput.value = this.point.lat;
            lonInput.value = this.point.lon;
            for (const input of [latInput, lonInput]) input.dispatchEvent(new Event("input", { bubbles: true }));
            pin.hidden = false;
            draw();
          },
        };
        pin.hidden = !pick.point;
        pins.append(pin);
        for (const input of [latInput, lonInput]) {
          input.addEventListener("change", () => {
            pick.point = read();
            pin.hidden = !pick.point;
            if (pick.point) center = project(pick.point.lat, pick.point.lon, zoom);
            draw();
          });
        }
      }
    }
    const explore = container.dataset.explore || "";
    function tapped(point) {
      if (pick) { pick.set(point); return; }
      if (!explore) return;
      const lat = rounded(point.lat), lon = rounded(point.lon);
      const link = element("a", "", "Details, share and directions");
      link.href = `${explore}?lat=${lat}&lon=${lon}`;
      const parts = [element("strong", "", "Dropped pin"), element("span", "", `${lat}, ${lon}`)];
      if (container.dataset.saveUrl) {
        const save = element("a", "", "Save as a place");
        save.href = `${container.dataset.saveUrl}?lat=${lat}&lon=${lon}`;
        parts.push(save);
      }
      parts.push(link);
      const { width, height } = size();
      const at = project(lat, lon, zoom);
      show(parts,
        { left: `${Math.round(at.x - center.x + width / 2)}px`, top: `${Math.round(at.y - center.y + height / 2)}px` });
    }

    // Where the person is: a dot, and the map centred on it.
    let here = null;
    // A position remembered from earlier (no network, or the browser cannot tell now) is drawn greyed.
    function locate(position, recentre, remembered = false) {
      if (!here) { here = { dot: element("span", "map-here") }; here.dot.setAttribute("aria-hidden", "true"); pins.append(here.dot); }
      here.lat = position.lat;
      here.lon = position.lon;
      here.dot.classList.toggle("map-here-remembered", remembered);
      // The neighbourhood: a few kilometres around, where the nearest places are.
      if (recentre) { zoom = 13; center = project(position.lat, position.lon, zoom); }
      container.dispatchEvent(new CustomEvent("locify:located", { detail: position, bubbles: true }));
      draw();
    }
    if (container.hasAttribute("data-locate") && navigator.geolocation) {
      const button = element("button", "map-locate", "◎");
      button.type = "button";
      button.setAttribute("aria-label", "Show my location");
      controls.append(button);
      const lastKnown = (recentre) => {
        const remembered = LocifyPosition.remembered();
        if (remembered) locate(remembered, recentre, true);
      };
      const ask = (recentre) => LocifyPosition.ask((position) => locate(position, recentre), () => lastKnown(recentre));
      button.addEventListener("click", () => ask(true));
      // Asked only when already allowed: a page never opens with a permission prompt.
      if (navigator.permissions) {
        // A search's results keep the view: the position is shown, not gone to.
        const recentre = !focus;
        navigator.permissions.query({ name: "geolocation" }).then((state) => {
          if (state.state === "granted") ask(recentre);
          else lastKnown(recentre);
        }).catch(() => lastKnown(recentre));
      } else {
        lastKnown(!focus);
      }
    }

    fit();
    draw();
    return {
      redraw: draw,
      fit: () => { fit(); draw(); },
      fitTo(points) { fitPoints(points); popup.hidden = true; draw(); },
      get zoom() { return zoom; },
      get bounds() { return bounds(); },
      outline(areaList) { outline(areaList); draw(); },
      drawBox(done) { drawing = { done }; container.classList.add("map-drawing"); popup.hidden = true; },
      stopDrawing,
      get drawing() { return Boolean(drawing); },
      set draft(box) { draft = box; draw(); },
      showLayer(name, on) {
        if (on) hiddenLayers.delete(name); else hiddenLayers.add(name);
        popup.hidden = true;
        clusteredAt = null;
        draw();
      },
    };
  }
  return { create };
})();

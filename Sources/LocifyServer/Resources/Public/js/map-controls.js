// The controls around the map widget (map.js): layer switches, "near me" forms, search ranking and
// full screen. Progressive enhancement only, as everywhere.

document.addEventListener("DOMContentLoaded", () => {
  for (const container of document.querySelectorAll("[data-map]")) {
    const map = LocifyMap.create(container);
    container.locifyMap = map;
  }
  // A layer switch beside a map shows or hides its markers in place; without this script it is a link
  // that reloads the page with the layer off.
  for (const toggle of document.querySelectorAll("[data-map-layer]")) {
    const container = document.getElementById(toggle.dataset.mapTarget);
    if (!container || !container.locifyMap) continue;
    const apply = () => container.locifyMap.showLayer(toggle.dataset.mapLayer, toggle.checked);
    toggle.hidden = false;
    const label = document.querySelector(`label[for="${toggle.id}"]`);
    if (label) label.hidden = false;
    const fallback = toggle.parentElement.querySelector("[data-layer-fallback]");
    if (fallback) fallback.hidden = true;
    toggle.addEventListener("change", apply);
    apply();
  }
  // Forms that can ask "near me" get the position the map found, or the browser's on request.
  for (const button of document.querySelectorAll("[data-near-me]")) {
    const input = document.getElementById(button.dataset.nearMe);
    if (!input || !navigator.geolocation) continue;
    button.hidden = false;
    const status = document.getElementById(button.dataset.nearStatus || "");
    button.addEventListener("click", () => {
      if (status) status.textContent = "Asking your browser where you are…";
      LocifyPosition.ask((position) => {
        input.value = `${position.lat},${position.lon}`;
        if (status) status.textContent = "Your position is filled in.";
      }, () => { if (status) status.textContent = "Your position could not be found; type a place or coordinates instead."; });
    });
  }
  // A search made from the map is ranked nearest first when the map knows where the person is.
  document.addEventListener("locify:located", (event) => {
    for (const input of document.querySelectorAll("[data-near-from-map]")) {
      input.value = `${event.detail.lat},${event.detail.lon}`;
    }
  });
  // "Full screen" puts a preview map over the page; Escape or Close brings it back.
  for (const button of document.querySelectorAll("[data-map-fullscreen]")) {
    const container = document.getElementById(button.dataset.mapFullscreen);
    if (!container || !container.locifyMap) continue;
    button.hidden = false;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "map-close";
    close.textContent = "Close map";
    close.hidden = true;
    container.append(close);
    const leave = () => {
      container.classList.remove("map-fullscreen");
      document.body.classList.remove("map-open");
      close.hidden = true;
      container.locifyMap.redraw();
      button.focus();
    };
    button.addEventListener("click", () => {
      container.classList.add("map-fullscreen");
      document.body.classList.add("map-open");
      close.hidden = false;
      container.locifyMap.fit();
      close.focus();
    });
    close.addEventListener("click", leave);
    container.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && container.classList.contains("map-fullscreen")) leave();
    });
  }
});

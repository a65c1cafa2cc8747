// Search with the server stopped. A list page the server marked (`data-offline-search="contact"` on its
// list) opened with `?q=` from the device's copy (the service worker answers a search it has not kept
// with the list itself) is searched on the device: the records kept by offline-store.js say which match,
// as the server matches them (folded text, accents and case ignored; a contact by its names, nickname and
// fields, a phone number by its digits; a place by its name, address and notes), and the rows shown are
// the server's own rows from every kept page of that list, in the list's order. The map's search finds
// the device's places and contacts' addresses the same way.
const LocifyOfflineSearch = (() => {
  // Letters that folding does not take apart, as ICU's Latin-ASCII writes them.
  const letters = {
    ß: "ss", æ: "ae", Æ: "AE", ø: "o", Ø: "O", œ: "oe", Œ: "OE", ł: "l", Ł: "L", đ: "d", Đ: "D", ð: "d", Ð: "D",
    þ: "th", Þ: "TH", ı: "i",
  };
  const phonePunctuation = new Set(["+", "-", "(", ")", ".", "/", " ", "\u00a0"]);

  /// The server's search form of text (`TextFolding.searchKey`): accents gone, lower case, single spaces.
  function fold(parts) {
    const joined = parts.filter((part) => part).join(" ");
    return joined.normalize("NFKD").replace(/\p{M}/gu, "").replace(/[ßæÆøØœŒłŁđĐðÐþÞı]/g, (letter) => letters[letter])
      .toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  }

  /// The digits of text that reads as a phone number (at least three), as `ContactSearch.phoneDigits`.
  function phoneDigits(text) {
    let digits = "";
    for (const character of text) {
      if (character >= "0" && character <= "9") digits += character;
      else if (!phonePunctuation.has(character) && !/\s/.test(character)) return null;
    }
    return digits.length >= 3 ? digits : null;
  }

  /// Each kind's search key by record id, and how a query matches one.
  const kinds = {
    contact: {
      async keys() {
        const [contacts, fields] = await Promise.all([LocifyStore.all("contact"), LocifyStore.all("contactfield")]);
        const data = new Map();
        for (const field of fields) {
          const id = field.contact && field.contact.id;
          if (!data.has(id)) data.set(id, []);
          data.get(id).push(field.content);
        }
        return new Map(contacts.map((contact) => {
          const values = data.get(contact.id) || [];
          const key = fold([contact.first_name, contact.last_name, contact.nickname, ...values,
            ...values.map(phoneDigits).filter(Boolean)]);
          return [contact.id, key];
        }));
      },
      terms(query) {
        const digits = phoneDigits(query);
        return digits ? [digits] : fold([query]).split(" ");
      },
      noun: ["contact", "contacts"],
    },
    place: {
      async keys() {
        const places = await LocifyStore.all("place");
        return new Map(places.map((place) => [place.id, fold([place.name, place.notes, place.address])]));
      },
      terms(query) {
        return [fold([query])];
      },
      noun: ["place", "places"],
    },
  };

  /// The list's parameters other than the search and the page (`archived=1`).
  function filters(url) {
    const params = new URLSearchParams(url.search);
    params.delete("q");
    params.delete("page");
    for (const [name, value] of [...params]) if (value === "") params.delete(name);
    params.sort();
    return params.toString();
  }

  /// A search form sends only what narrows the list: a select left at its first choice (the list's own
  /// order, any distance) and an empty field are left out, so a search's address is the list's with `q`
  /// (`/places/categories/5?q=cafe`), which the device can answer offline.
  function leaveOutDefaults(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.getAttribute("role") !== "search" || form.method !== "get") return;
    for (const control of form.elements) {
      if (!control.name || control.disabled || control.name === "q") continue;
      const atDefault = control.value === "" ||
        (control.tagName === "SELECT" && control.options.length > 0 && control.value === control.options[0].value);
      if (!atDefault) continue;
      // Disabled controls are not sent; the form is whole again once it has gone.
      control.disabled = true;
      setTimeout(() => { control.disabled = false; }, 0);
    }
  }

  /// The rows of every kept page of this list, in the list's order, by the id their link names.
  async function keptRows(kind) {
    const here = new URL(location.href);
    const cache = await caches.open("locify-pages");
    const pages = (await cache.keys()).map((request) => new URL(request.url))
      .filter((url) => url.pathname === here.pathname && !url.searchParams.has("q") && filters(url) === filters(here))
      .sort((a, b) => Number(a.searchParams.get("page") || 1) - Number(b.searchParams.get("page") || 1));
    const rows = new Map();
    for (const url of pages) {
      const response = await cache.match(url.href);
      if (!response) continue;
      const page = new DOMParser().parseFromString(await LocifyStore.pageText(response), "text/html");
      const list = page.querySelector(`[data-offline-search="${kind}"]`);
      if (!list) continue;
      for (const row of list.children) {
        const link = row.querySelector("a[href]");
        const id = link ? Number(new URL(link.getAttribute("href"), location.origin).pathname.split("/").pop()) : NaN;
        if (!Number.isNaN(id) && !rows.has(id)) rows.set(id, document.importNode(row, true));
      }
    }
    return rows;
  }

  const distanceText = (kilometres) => kilometres < 1 ? `${Math.round(kilometres * 100) * 10} m`
    : kilometres < 10 ? `${kilometres.toFixed(1)} km` : `${Math.round(kilometres)} km`;
  const coordinateText = (lat, lon) => `${Number(lat.toFixed(6))}, ${Number(lon.toFixed(6))}`;
  function kilometresBetween(a, b) {
    const radians = (degrees) => degrees * Math.PI / 180;
    const h = Math.sin(radians(b.lat - a.lat) / 2) ** 2 +
      Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(radians(b.lon - a.lon) / 2) ** 2;
    return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  /// What the map's search finds on the device, as the server finds it (`searchEverywhere`): the places
  /// whose name, address or notes hold the folded query, by name (50 at most), then the contacts' placed
  /// addresses whose contact's name, label or lines hold it; nearest first when the search has a point; 20
  /// at most. The map's gazetteer stays on the server.
  async function mapHits(query, near) {
    const folded = fold([query]);
    const [places, addresses, contacts] = await Promise.all(
      [LocifyStore.all("place"), LocifyStore.all("address"), LocifyStore.all("contact")]);
    const names = new Map(contacts.map((contact) => [contact.id, contact.complete_name]));
    const hits = places
      .filter((place) => fold([place.name, place.notes, place.address]).includes(folded))
      // As the server orders them: by folded name as plain text, then by id.
      .map((place) => ({ place, key: fold([place.name]) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.place.id - b.place.id))
      .map(({ place }) => place)
      .slice(0, 50)
      .map((place) => ({
        name: place.name, kind: "Your place", detail: place.address, lat: place.latitude, lon: place.longitude,
        url: `/places/${place.id}`, open: "Open the place",
      }));
    for (const address of addresses.sort((a, b) => a.id - b.id)) {
      const contactID = address.contact_id ?? (address.contact && address.contact.id);
      const name = names.get(contactID);
      if (address.latitude == null || address.longitude == null || name === undefined) continue;
      const lines = address.formatted || [];
      if (!fold([name, address.name, ...lines]).includes(folded)) continue;
      hits.push({
        name: [name, address.name].filter(Boolean).join(" · "), kind: "Contact's address", detail: lines.join(", "),
        lat: address.latitude, lon: address.longitude, url: `/contacts/${contactID}`, open: "Open the contact",
      });
    }
    if (!near) return hits.slice(0, 20);
    for (const hit of hits) hit.kilometres = kilometresBetween(near, hit);
    return hits.map((hit, index) => [hit, index]).sort(([a, i], [b, j]) => a.kilometres - b.kilometres || i - j)
      .slice(0, 20).map(([hit]) => hit);
  }

  /// The map page kept on this device, asked a search: what the device finds, listed as the server lists
  /// it, and the map brought to it.
  async function searchMap(form, query) {
    const params = new URLSearchParams(location.search);
    const [lat, lon] = (params.get("near") || "").split(",").map(Number);
    const near = Number.isFinite(lat) && Number.isFinite(lon) && params.get("near") ? { lat, lon } : null;
    const hits = await mapHits(query, near);
    const make = (tag, className, text) => {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text) node.textContent = text;
      return node;
    };
    const section = make("section", "search-results sheet");
    section.setAttribute("aria-labelledby", "results-heading");
    const heading = make("h2", "", hits.length === 0 ? `Nothing found for “${query}”` : `Found for “${query}”`);
    heading.id = "results-heading";
    const summary = make("p", "hint", "Searched in your places and your contacts' addresses on this device; " +
      "towns and streets on the map need the server.");
    summary.dataset.offlineSummary = "";
    const list = make("ol", "result-list");
    hits.forEach((hit, index) => {
      const item = make("li");
      item.id = `result-${index + 1}`;
      const title = make("p");
      title.append(make("strong", "", hit.name), " ", make("span", "tag", hit.kind));
      if (hit.kilometres !== undefined) title.append(" ", make("span", "hint", `${distanceText(hit.kilometres)} away`));
      item.append(title);
      if (hit.detail) item.append(make("p", "", hit.detail));
      item.append(make("p", "hint", coordinateText(hit.lat, hit.lon)));
      const actions = make("p", "result-actions");
      const open = make("a", "", hit.open);
      open.href = hit.url;
      actions.append(open);
      item.append(actions);
      list.append(item);
    });
    const clear = make("p");
    const link = make("a", "", "Clear the search");
    link.href = form.action;
    clear.append(link);
    section.append(heading, summary, list, clear);
    // A search kept from when it was made online is searched again in the device's current copy.
    for (const kept of document.querySelectorAll("main .search-results")) kept.remove();
    // As online: the map first, the results a sheet under it (under the layer switch where there is one).
    const mapHome = form.closest(".map-home");
    (mapHome && mapHome.querySelector(".map-layers") || form).after(section);
    form.querySelector("input[name=q]").value = query;
    const map = document.getElementById(form.dataset.offlineMapSearch);
    if (map && map.locifyMap && hits.length > 0) map.locifyMap.fitTo(hits);
  }

  async function start() {
    const query = (new URLSearchParams(location.search).get("q") || "").trim();
    const mapForm = document.querySelector("form[data-offline-map-search]");
    const offline = document.querySelector("main .offline-status[data-offline-saved-at]");
    if (query && mapForm && offline && "indexedDB" in window) return searchMap(mapForm, query);
    const list = document.querySelector("[data-offline-search]");
    const kind = list && kinds[list.dataset.offlineSearch];
    if (!query || !kind || !document.querySelector("main .offline-status[data-offline-saved-at]")) return;
    if (!("caches" in window) || !("indexedDB" in window)) return;
    const [keys, rows] = await Promise.all([kind.keys(), keptRows(list.dataset.offlineSearch)]);
    const terms = kind.terms(query);
    const found = [...rows].filter(([id]) => {
      const key = keys.get(id);
      return key !== undefined && terms.every((term) => key.includes(term));
    });
    list.replaceChildren(...found.map(([, row]) => row));
    list.hidden = found.length === 0;
    for (const empty of document.querySelectorAll("[data-offline-empty]")) empty.hidden = true;
    const [one, many] = kind.noun;
    const summary = document.querySelector("[data-offline-summary]");
    if (summary) {
      summary.textContent = found.length === 0
        ? `No ${one} matches “${query}” in the copy on this device.`
        : `${found.length.toLocaleString()} ${found.length === 1 ? `${one} matches` : `${many} match`} “${query}” ` +
          "(searched in the copy on this device).";
    }
    for (const field of document.querySelectorAll("main form[role=search] input[name=q]")) field.value = query;
    for (const pager of document.querySelectorAll("main nav.pager")) pager.hidden = true;
  }

  return { start, leaveOutDefaults, fold, phoneDigits };
})();
document.addEventListener("DOMContentLoaded", () => { LocifyOfflineSearch.start().catch(() => {}); });
document.addEventListener("submit", LocifyOfflineSearch.leaveOutDefaults);

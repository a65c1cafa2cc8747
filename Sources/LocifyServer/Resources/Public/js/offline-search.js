// Search with the server stopped. A list page the server marked (`data-offline-search="contact"` on its
// list) opened with `?q=` from the device's copy (the service worker answers a search it has not kept
// with the list itself) is searched on the device: the records kept by offline-store.js say which match,
// as the server matches them (folded text, accents and case ignored; a contact by its names, nickname and
// fields, a phone number by its digits; a place by its name, address and notes), and the rows shown are
// the server's own rows from every kept page of that list, in the list's order.
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
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
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

  async function start() {
    const query = (new URLSearchParams(location.search).get("q") || "").trim();
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

// Progressive enhancement only: every page works without this file.
document.addEventListener("DOMContentLoaded", () => {
  // "Delete" links open the confirmation dialog in place instead of the confirmation page.
  for (const link of document.querySelectorAll("[data-confirm-dialog]")) {
    const dialog = document.getElementById(link.dataset.confirmDialog);
    if (!dialog || typeof dialog.showModal !== "function") continue;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      dialog.showModal();
    });
    for (const closer of dialog.querySelectorAll("[data-close-dialog]")) {
      closer.addEventListener("click", () => dialog.close());
    }
  }
  // Copy and share buttons appear only where the browser can do it; the text stays selectable regardless.
  for (const button of document.querySelectorAll("[data-copy-from]")) {
    if (!navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      const text = document.getElementById(button.dataset.copyFrom).value;
      const status = button.closest("details, .copy-group").querySelector(".copied");
      try {
        await navigator.clipboard.writeText(text);
        status.textContent = "Copied to the clipboard.";
      } catch {
        status.textContent = "Copying was not allowed; select the text above instead.";
      }
    });
  }
  for (const button of document.querySelectorAll("[data-share-from]")) {
    if (!navigator.share) continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      const text = document.getElementById(button.dataset.shareFrom).value;
      navigator.share({ title: button.dataset.shareTitle, text }).catch(() => {});
    });
  }
  // A long list (countries, contacts) becomes one combobox: a text field that narrows the choices as one
  // types, shown as a list under it (arrows move, Enter or a tap chooses, Escape closes), and picks the
  // first that fits. The select stays in the form, hidden, and carries the value; without JavaScript it is
  // a plain list where typing a name jumps to it. `chosen` runs once typing or a choice picks another entry.
  const fold = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  function addFilter(select, placeholder, chosen) {
    const box = document.createElement("div");
    box.className = "combobox";
    const input = document.createElement("input");
    input.type = "text";
    input.id = select.id + "-filter";
    input.className = "select-filter";
    input.placeholder = placeholder;
    input.autocomplete = "off";
    input.spellcheck = false;
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    const list = document.createElement("ul");
    list.id = select.id + "-choices";
    list.className = "combobox-list";
    list.setAttribute("role", "listbox");
    list.hidden = true;
    input.setAttribute("aria-controls", list.id);
    const label = document.querySelector(`label[for="${select.id}"]`);
    if (label) {
      label.htmlFor = input.id;
      if (!label.id) label.id = select.id + "-label";
      list.setAttribute("aria-labelledby", label.id);
    } else {
      input.setAttribute("aria-label", placeholder);
    }
    for (const name of ["aria-describedby", "aria-invalid"]) {
      if (select.hasAttribute(name)) input.setAttribute(name, select.getAttribute(name));
    }
    const options = [...select.options].filter((option) => option.value !== "");
    const selectedText = () => (select.value === "" ? "" : select.selectedOptions[0].text);
    input.value = selectedText();
    select.hidden = true;
    select.tabIndex = -1;
    box.append(input, list);
    select.before(box);

    let shown = [];
    let active = -1;
    const pick = (option) => {
      if (select.value === option.value) return;
      select.value = option.value;
      if (chosen) chosen();
    };
    const mark = (index) => {
      active = index;
      [...list.children].forEach((item, at) => item.classList.toggle("active", at === index));
      if (index < 0) { input.removeAttribute("aria-activedescendant"); return; }
      input.setAttribute("aria-activedescendant", list.children[index].id);
      list.children[index].scrollIntoView({ block: "nearest" });
    };
    const close = () => {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      mark(-1);
    };
    const choose = (option) => {
      pick(option);
      input.value = option.text;
      close();
    };
    const open = () => {
      const wanted = fold(input.value.trim());
      shown = options.filter((option) => !wanted || fold(option.text).includes(wanted) || fold(option.value) === wanted);
      list.replaceChildren(...shown.slice(0, 100).map((option, index) => {
        const item = document.createElement("li");
        item.id = `${list.id}-${index}`;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", String(option.value === select.value));
        item.textContent = option.text;
        // Keep the focus in the field while the pointer chooses.
        item.addEventListener("mousedown", (event) => event.preventDefault());
        item.addEventListener("click", () => choose(option));
        return item;
      }));
      if (shown.length === 0) {
        const none = document.createElement("li");
        none.className = "combobox-none";
        none.textContent = "Nothing matches";
        list.append(none);
      }
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      mark(-1);
    };
    input.addEventListener("input", () => {
      open();
      if (input.value.trim() && shown.length > 0) pick(shown[0]);
    });
    input.addEventListener("focus", () => input.select());
    input.addEventListener("keydown", (event) => {
      const count = Math.min(shown.length, 100);
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        if (list.hidden) open();
        if (count === 0) return;
        const step = event.key === "ArrowDown" ? 1 : -1;
        mark(active < 0 ? (step > 0 ? 0 : count - 1) : (active + step + count) % count);
      } else if (event.key === "Enter" && !list.hidden) {
        // Enter chooses; it sends the form only once the list is closed.
        event.preventDefault();
        if (active >= 0) choose(shown[active]);
        else if (shown.length > 0) choose(shown[0]);
        else close();
      } else if (event.key === "Escape" && !list.hidden) {
        event.preventDefault();
        input.value = selectedText();
        close();
      }
    });
    input.addEventListener("blur", () => {
      close();
      if (input.value.trim() === "") {
        // An emptied field chooses nothing where the list allows it; else it keeps the last choice.
        if (select.querySelector('option[value=""]') && select.value !== "") {
          select.value = "";
          if (chosen) chosen();
        }
        return;
      }
      input.value = selectedText();
    });
    return input;
  }
  const countrySelect = document.querySelector("[data-country-picker] select");
  if (countrySelect) {
    const filter = addFilter(countrySelect, "Type to find a country", () => {
      // Typing goes through several countries on the way to one: the fields follow once it pauses.
      clearTimeout(filter.pending);
      filter.pending = setTimeout(() => countrySelect.dispatchEvent(new Event("change")), 250);
    });
    filter.id = "country-filter";
  }
  // Only a list long enough to scroll through is worth a filter; a list of several choices keeps its own
  // box (the filter chooses one).
  for (const select of document.querySelectorAll("select[data-filter]:not([multiple])")) {
    if (select.options.length > 8) addFilter(select, select.dataset.filter);
  }
  // The address form follows the chosen country at once: its fields are fetched as the server lays them
  // out for that country (the same page the "Show this country's fields" button asks for).
  const picker = document.querySelector("[data-country-picker] select");
  const fields = document.querySelector("[data-address-fields]");
  if (picker && fields) {
    const refresh = document.querySelector("[data-refresh-fields]");
    if (refresh) refresh.hidden = true;
    let latest = 0;
    picker.addEventListener("change", async () => {
      // Answers can come back out of order; only the one for the latest choice is used.
      const request = ++latest;
      const typed = {};
      for (const input of fields.querySelectorAll("input")) typed[input.name] = input.value;
      const url = new URL(window.location.href);
      url.searchParams.set("country", picker.value);
      const response = await fetch(url, { headers: { Accept: "text/html" } });
      if (!response.ok) {
        if (refresh) refresh.hidden = false;
        return;
      }
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.querySelector("[data-address-fields]");
      if (!fresh || request !== latest) return;
      fields.replaceChildren(...fresh.childNodes);
      for (const input of fields.querySelectorAll("input")) {
        if (typed[input.name] !== undefined) input.value = typed[input.name];
      }
    });
  }
  // Browser notifications: offered only where the browser has them, asked for only after "Enable" is
  // clicked, and shown while a Locify page is open (the server keeps the in-app list either way).
  const offer = document.querySelector("[data-browser-notifications]");
  if (offer && "Notification" in window) {
    const status = offer.querySelector("[data-notification-status]");
    const enable = offer.querySelector("[data-enable-notifications]");
    const describe = () => {
      if (Notification.permission === "granted") {
        status.textContent = "Browser notifications are on while Locify is open in a tab.";
        enable.hidden = true;
      } else if (Notification.permission === "denied") {
        status.textContent = "Your browser blocks notifications from Locify; allow them in its site settings to use them.";
        enable.hidden = true;
      }
    };
    offer.hidden = false;
    describe();
    enable.addEventListener("click", async () => {
      await Notification.requestPermission();
      localStorage.setItem("locify-browser-notifications", "on");
      describe();
    });
  }
  // The Notifications page's element also says which notification is the newest; any page's header says where to ask.
  const latest = document.querySelector("[data-latest-id]") || document.querySelector("form.logout[data-latest-url]");
  if (latest) LocifyNotifications.watch(latest);
  // A freshly created token is selected so it can be copied at once.
  const token = document.getElementById("new-token-value");
  if (token) { token.focus(); token.select(); }
});

// Avatars show their initials under the picture: a picture that does not load is taken away, so the
// initials show rather than a broken image. Error events do not bubble, so they are caught on the way down.
const LocifyAvatars = (() => {
  const drop = (image) => image.remove();
  document.addEventListener("error", (event) => {
    if (event.target instanceof HTMLImageElement && event.target.parentElement?.classList.contains("avatar")) {
      drop(event.target);
    }
  }, true);
  // Pictures that failed before this script ran.
  document.addEventListener("DOMContentLoaded", () => {
    for (const image of document.querySelectorAll(".avatar img")) {
      if (image.complete && image.naturalWidth === 0 && image.getAttribute("loading") !== "lazy") drop(image);
    }
  });
  // The same markup as the avatar partial, for pictures drawn by scripts (map popups).
  function make(avatar) {
    const span = document.createElement("span");
    span.className = `avatar avatar-${avatar.size} ${avatar.colorClass}`;
    span.setAttribute("aria-hidden", "true");
    const initials = document.createElement("span");
    initials.className = "avatar-initials";
    initials.textContent = avatar.initials;
    span.append(initials);
    if (avatar.imageURL) {
      const image = document.createElement("img");
      image.alt = "";
      image.width = avatar.size;
      image.height = avatar.size;
      image.src = avatar.imageURL;
      span.append(image);
    }
    return span;
  }
  return { make };
})();

// A field that means nothing for one choice of another (how often a one-time reminder repeats) is hidden
// while that choice is made; without a script it shows, with a hint saying when it is ignored.
document.addEventListener("DOMContentLoaded", () => {
  for (const control of document.querySelectorAll("[data-shown-unless]")) {
    const [name, value] = control.dataset.shownUnless.split("=");
    const other = control.form && control.form.elements[name];
    const field = control.closest(".field");
    if (!other || !field) continue;
    const update = () => { field.hidden = other.value === value; };
    other.addEventListener("change", update);
    update();
  }
});

// The account's timezone from the browser's own: chosen at sign-up (a person who changes it keeps
// theirs), offered in Settings where it differs from the saved one. Only a zone of the list is used.
document.addEventListener("DOMContentLoaded", () => {
  let browserZone = "";
  try { browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (_) { return; }
  for (const select of document.querySelectorAll("select[data-browser-timezone]")) {
    const known = [...select.options].some((option) => option.value === browserZone);
    if (!known || select.value === browserZone) continue;
    if (select.dataset.browserTimezone === "choose") {
      select.value = browserZone;
      continue;
    }
    const note = document.createElement("p");
    note.className = "hint timezone-offer";
    note.id = select.id + "-browser";
    note.append(`This device is set to ${browserZone.replaceAll("_", " ")}. `);
    const use = document.createElement("button");
    use.type = "button";
    use.textContent = `Use ${browserZone.replaceAll("_", " ")}`;
    use.addEventListener("click", () => {
      select.value = browserZone;
      note.remove();
      select.focus();
    });
    note.append(use);
    select.insertAdjacentElement("afterend", note);
  }
});

// A photo chosen for upload is shown before it is sent. Read as a data URL: the page's
// Content-Security-Policy allows data: images and no blob: ones.
document.addEventListener("DOMContentLoaded", () => {
  for (const input of document.querySelectorAll("[data-photo-preview]")) {
    const preview = document.getElementById(input.dataset.photoPreview);
    if (!preview || !window.FileReader) continue;
    input.addEventListener("change", () => {
      const file = input.files && input.files[0];
      if (!file || !file.type.startsWith("image/")) {
        preview.hidden = true;
        preview.removeAttribute("src");
        return;
      }
      const reader = new FileReader();
      reader.addEventListener("load", () => {
        preview.src = reader.result;
        preview.hidden = false;
      });
      reader.readAsDataURL(file);
    });
  }
});

// The person's position: asked of the browser, rounded to six decimals (about 10 cm), and remembered in
// this browser as the last one known, for the next map that may not ask.
const LocifyPosition = (() => {
  const key = "locify-last-position";
  const rounded = (value) => Math.round(value * 1e6) / 1e6;
  function ask(found, failed) {
    navigator.geolocation.getCurrentPosition((answer) => {
      const position = { lat: rounded(answer.coords.latitude), lon: rounded(answer.coords.longitude) };
      localStorage.setItem(key, JSON.stringify(position));
      found(position);
    }, () => { if (failed) failed(); }, { maximumAge: 300000, timeout: 10000 });
  }
  const remembered = () => JSON.parse(localStorage.getItem(key) || "null");
  return { ask, remembered, rounded };
})();

// While a page of Locify is open and the browser allows it, new in-app notifications also appear as
// browser notifications. The newest id already seen is kept, so each one is shown once per browser.
const LocifyNotifications = (() => {
  const seenKey = "locify-latest-notification";
  function watch(source) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    const url = source.dataset.latestUrl;
    if (source.dataset.latestId) {
      const shown = Number(localStorage.getItem(seenKey) || 0);
      localStorage.setItem(seenKey, String(Math.max(shown, Number(source.dataset.latestId))));
    }
    const poll = async () => {
      const after = Number(localStorage.getItem(seenKey) || 0);
      try {
        const response = await fetch(url + "?after=" + after, { headers: { Accept: "application/json" } });
        if (!response.ok) return;
        const answer = await response.json();
        for (const item of answer.notifications.slice().reverse()) {
          const shown = new Notification(item.title, { body: item.body, tag: "locify-" + item.id });
          shown.onclick = () => { window.focus(); window.location.href = item.url; };
        }
        localStorage.setItem(seenKey, String(Math.max(after, answer.latest_id)));
      } catch {
        // Offline for a moment: the next poll catches up.
      }
    };
    poll();
    setInterval(poll, 60000);
  }
  return { watch };
})();

// The offline app: the service worker keeps the pages opened here for when the server cannot be
// reached. Logging out removes everything it kept (the server's Clear-Site-Data does too, where the
// browser supports it), so a shared computer keeps nothing of the account.
const LocifyOffline = (() => {
  async function forgetDevice() {
    // The last position the maps showed, and what notifications were seen.
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith("locify")) localStorage.removeItem(key);
    }
    if ("caches" in window) {
      for (const name of await caches.keys()) {
        if (name.startsWith("locify-")) await caches.delete(name);
      }
    }
    if ("serviceWorker" in navigator) {
      for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    }
    if ("indexedDB" in window) {
      // Nothing on this page opens it again once it is gone (offline-store.js is on every page).
      if (typeof LocifyStore !== "undefined") LocifyStore.close();
      // The account's copy (offline-store.js). Its connections close when asked (`onversionchange`), so
      // the deletion is done before the log-out is sent; one another tab holds open is waited for a
      // little, then finishes when that tab lets go.
      await new Promise((resolve) => {
        const removal = indexedDB.deleteDatabase("locify");
        removal.onsuccess = removal.onerror = () => resolve();
        removal.onblocked = () => setTimeout(resolve, 3000);
      });
    }
  }
  // A page open when the device loses its network says so, with the time it was loaded.
  function noteConnection() {
    const main = document.querySelector("main");
    let note = document.getElementById("connection-status");
    if (navigator.onLine) {
      if (note) note.remove();
      return;
    }
    if (!main || note || main.querySelector(".offline-status")) return;
    note = document.createElement("p");
    note.id = "connection-status";
    note.className = "offline-status";
    note.setAttribute("role", "status");
    const loaded = new Intl.DateTimeFormat(undefined, { timeStyle: "short" }).format(loadedAt);
    note.innerHTML = "<strong>Offline.</strong> ";
    note.append(`This device has no network: the page shows what it showed when it was loaded, at ${loaded}.`);
    main.prepend(note);
  }
  const loadedAt = new Date();
  function start() {
    window.addEventListener("offline", noteConnection);
    window.addEventListener("online", noteConnection);
    noteConnection();
    const worker = document.documentElement.dataset.serviceWorker;
    if (worker && "serviceWorker" in navigator) {
      navigator.serviceWorker.register(worker).catch(() => {});
    }
    const logout = document.querySelector("form.logout");
    if (!logout) return;
    logout.addEventListener("submit", (event) => {
      if (logout.dataset.deviceForgotten) return;
      event.preventDefault();
      const submit = () => { logout.dataset.deviceForgotten = "yes"; logout.requestSubmit(); };
      // Whatever happens while clearing, the person is logged out.
      forgetDevice().then(submit, submit);
    });
  }
  return { start, forgetDevice };
})();
document.addEventListener("DOMContentLoaded", LocifyOffline.start);

// A link to a part of the page folded away (a contact's calls under "more") opens what folds it, for
// browsers that do not unfold details on their own when the address names something inside.
(() => {
  function unfoldTarget() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    for (let node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) node.open = true;
    }
    if (target) target.scrollIntoView();
  }
  document.addEventListener("DOMContentLoaded", unfoldTarget);
  window.addEventListener("hashchange", unfoldTarget);
})();

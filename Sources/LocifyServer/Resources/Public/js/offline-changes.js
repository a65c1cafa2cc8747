// Changes made when the server cannot be reached. A form the server marked (`data-sync-…`, see
// OfflineForm.swift) is sent as usual while the server answers; when it does not (no network, the server
// stopped, a page opened from the device's copy), what the person changed is kept on the device as a
// sync mutation (offline-store.js), a note on every page lists the changes waiting, and they are sent
// when the server answers again: on the next page load, when the network comes back, every 30 seconds
// while changes wait. Changes the server refuses are listed with its reasons until the person dismisses
// them. Progressive enhancement only: without this script the forms work online as before.
const LocifyChanges = (() => {
  const retryEvery = 30 * 1000;
  let waitingCount = 0;
  let savedSinceLoad = 0;
  let marking = Promise.resolve();

  /// The device has no network at all (a page opened from the device's copy still asks the server: it may
  /// be back).
  function surelyOffline() {
    return !navigator.onLine;
  }

  /// Whether the server answers now (its health check, within 5 seconds).
  async function serverAnswers() {
    const url = document.documentElement.dataset.healthUrl;
    if (!url) return true;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5000);
    try {
      const response = await fetch(url, { cache: "no-store", signal: controller.signal });
      return response.ok;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  function labelOf(form, control) {
    const label = control.id ? form.querySelector(`label[for="${CSS.escape(control.id)}"]`) : null;
    return label ? label.textContent.trim() : control.name;
  }

  function selectDefault(select) {
    const chosen = [...select.options].find((option) => option.defaultSelected);
    return chosen ? chosen.value : (select.options[0] ? select.options[0].value : "");
  }

  /// The values of the form's push fields: every one given for a new record, only those changed for an
  /// update. Answers the values and the labels of the fields changed.
  function changedFields(form) {
    const names = new Set((form.dataset.syncFields || "").split(" ").filter(Boolean));
    const creating = form.dataset.syncOp === "create";
    const fields = {};
    const labels = [];
    let title = null;
    for (const control of form.elements) {
      if (!control.name || !names.has(control.name) || control.disabled) continue;
      if (["submit", "button", "reset", "file", "radio"].includes(control.type)) continue;
      if (control.type === "checkbox") {
        if (creating || control.checked !== control.defaultChecked) {
          fields[control.name] = control.checked;
          if (!creating) labels.push(labelOf(form, control));
        }
        continue;
      }
      const value = control.value;
      const initial = control.tagName === "SELECT" ? selectDefault(control) : control.defaultValue;
      if (creating ? value.trim() === "" : value === initial) continue;
      fields[control.name] = value;
      if (control.type !== "hidden") labels.push(labelOf(form, control));
      if (title === null && control.type === "text") title = value.trim();
    }
    return { fields, labels, title };
  }

  function problem(form, text) {
    let note = form.querySelector(".offline-form-problem");
    if (!note) {
      note = document.createElement("p");
      note.className = "error offline-form-problem";
      note.setAttribute("role", "alert");
      form.prepend(note);
    }
    note.textContent = text;
  }

  /// The form's change as the entries of the device's queue: a record the form makes first (a place's
  /// new category), then the form's own.
  async function entriesOf(form) {
    const data = form.dataset;
    const op = data.syncOp;
    const { fields, labels, title } = changedFields(form);
    Object.assign(fields, data.syncFixed ? JSON.parse(data.syncFixed) : {});
    const entries = [];
    const page = location.pathname + location.search;
    const at = new Date().toISOString();
    if (data.syncCompanion) {
      const companion = JSON.parse(data.syncCompanion);
      const control = form.elements[companion.control];
      const text = control ? control.value.trim() : "";
      if (text) {
        const uuid = LocifyStore.newUUID();
        entries.push({
          mutation: { type: companion.type, op: "create", uuid, base_revision: null, fields: { [companion.field]: text } },
          summary: `New ${companion.type} “${text}”`, detail: [], page, at,
        });
        fields[companion.reference] = uuid;
        delete fields[companion.reference.replace(/_uuid$/, "_id")];
        labels.push(labelOf(form, control));
      }
    }
    let uuid;
    let baseRevision = null;
    if (op === "create") {
      uuid = LocifyStore.newUUID();
    } else {
      const kept = await LocifyStore.record(data.syncType, Number(data.syncId));
      if (!kept) return null;
      uuid = kept.uuid;
      baseRevision = kept.revision;
    }
    if (op === "update" && Object.keys(fields).length === 0) return [];
    const summary = op === "create" && title ? `${data.syncSummary} “${title}”` : data.syncSummary;
    entries.push({
      mutation: { type: data.syncType, op, uuid, base_revision: baseRevision, fields },
      summary, detail: op === "update" ? labels : [], page, then: data.syncThen, at,
    });
    return entries;
  }

  async function keep(form) {
    let entries;
    try {
      entries = await entriesOf(form);
    } catch {
      entries = null;
    }
    if (entries === null) {
      problem(form, "The server cannot be reached, and this device does not have this record yet, so the " +
        "change cannot be kept here. Try again when the server answers.");
      return;
    }
    if (entries.length > 0) await LocifyStore.enqueue(entries);
    location.assign(form.dataset.syncThen);
  }

  async function submitted(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.syncType) return;
    if (form.dataset.syncSending) return;
    if (event.submitter && event.submitter.hasAttribute("data-offline-skip")) return;
    if (!("indexedDB" in window) || !document.documentElement.dataset.account) return;
    event.preventDefault();
    if (form.dataset.syncBusy) return;
    form.dataset.syncBusy = "yes";
    const submitter = event.submitter;
    try {
      if (!surelyOffline() && (await serverAnswers())) {
        // Sent as usual; this handler lets the second submit event through.
        form.dataset.syncSending = "yes";
        form.requestSubmit(submitter && submitter.form === form ? submitter : null);
        delete form.dataset.syncSending;
        return;
      }
      await keep(form);
    } catch {
      problem(form, "This change could not be kept on this device. Try again when the server answers.");
    } finally {
      delete form.dataset.syncBusy;
    }
  }

  function plural(count, one, many) {
    return `${count.toLocaleString()} ${count === 1 ? one : many}`;
  }

  /// The note on every page: the changes waiting, those just saved (this page was drawn before) and
  /// those the server refused.
  async function show(event) {
    const section = document.getElementById("offline-changes");
    if (!section) return;
    if (event && event.detail && event.detail.saved) savedSinceLoad += event.detail.saved;
    let found;
    try {
      found = await LocifyStore.changes();
    } catch {
      return;
    }
    waitingCount = found.waiting.length;
    // One marking at a time: a second one starts from the first one's page.
    marking = marking.then(() => markWaiting(found.waiting)).catch(() => {});
    section.replaceChildren();
    section.hidden = found.waiting.length === 0 && found.refused.length === 0 && savedSinceLoad === 0;
    if (savedSinceLoad > 0 && found.waiting.length === 0) {
      const saved = document.createElement("p");
      saved.className = "saved-changes";
      saved.append(`${plural(savedSinceLoad, "change", "changes")} made on this device ` +
        `${savedSinceLoad === 1 ? "was" : "were"} saved. `);
      const reload = document.createElement("a");
      reload.href = location.href;
      reload.textContent = "Show this page as it is now";
      saved.append(reload);
      section.append(saved);
    }
    if (found.waiting.length > 0) {
      const heading = document.createElement("h2");
      heading.id = "offline-changes-heading";
      heading.textContent = `${plural(found.waiting.length, "change", "changes")} waiting`;
      const explanation = document.createElement("p");
      explanation.textContent = "Made on this device while the server could not be reached. They are sent as " +
        "soon as it answers; pages show them once sent.";
      const list = document.createElement("ul");
      for (const entry of found.waiting) {
        const item = document.createElement("li");
        item.textContent = entry.summary + (entry.detail && entry.detail.length ? `: ${entry.detail.join(", ")}` : "");
        list.append(item);
      }
      section.append(heading, explanation, list);
    }
    if (found.refused.length > 0) {
      const heading = document.createElement("h2");
      if (found.waiting.length === 0) heading.id = "offline-changes-heading";
      heading.textContent = `${plural(found.refused.length, "change was", "changes were")} not saved`;
      const list = document.createElement("ul");
      list.className = "refused-changes";
      for (const entry of found.refused) {
        const item = document.createElement("li");
        const what = document.createElement("strong");
        what.textContent = entry.summary;
        const reasons = (entry.errors || []).map((error) => error.message).filter(Boolean);
        const why = entry.status === "conflict"
          ? "It was deleted meanwhile, so the change was not made."
          : (reasons.join(" ") || "The server refused it.");
        item.append(what, `: ${why} `);
        if (entry.status !== "conflict" && entry.page) {
          const again = document.createElement("a");
          again.href = entry.page;
          again.textContent = "Make it again";
          item.append(again, " ");
        }
        const dismiss = document.createElement("button");
        dismiss.type = "button";
        dismiss.className = "small";
        dismiss.textContent = "Dismiss";
        dismiss.addEventListener("click", async () => {
          await LocifyStore.dismiss(entry.id);
          show();
        });
        item.append(dismiss);
        list.append(item);
      }
      section.append(heading, list);
    }
  }

  /// Changes waiting show in the pages they touch, until the server has them: a record changed or deleted
  /// here is marked on its own page and in the lists that link to it, with the new values it shows as
  /// typed, and a record made here heads the list its form led to or the list that holds it.
  async function markWaiting(waiting) {
    for (const old of document.querySelectorAll("[data-waiting-mark]")) old.remove();
    for (const row of document.querySelectorAll(".waiting-deleted")) row.classList.remove("waiting-deleted");
    for (const list of document.querySelectorAll("[data-offline-search][data-was-hidden]")) {
      list.hidden = true;
      delete list.dataset.wasHidden;
    }
    for (const shown of document.querySelectorAll(".waiting-value")) {
      shown.textContent = shown.dataset.drawnText;
      shown.classList.remove("waiting-value");
    }
    const plan = LocifyStore.plan();
    if (!plan || waiting.length === 0) return;
    const main = document.querySelector("main");
    const mark = (text) => {
      const tag = document.createElement("span");
      tag.className = "tag waiting-tag";
      tag.dataset.waitingMark = "";
      tag.textContent = text;
      return tag;
    };
    // A field the page shows as it is (`data-sync-field`) shows the value waiting instead, marked; so
    // does one it makes of several (`data-sync-compose="first_name last_name"`, the ones set joined by
    // spaces as the server joins a name, or by `data-sync-joiner`: "job at company"), from the values
    // waiting and the record's others.
    const showValue = (shown, value) => {
      if (!shown.classList.contains("waiting-value")) shown.dataset.drawnText = shown.textContent;
      shown.textContent = value;
      shown.classList.add("waiting-value");
    };
    const showValues = (scope, fields, record) => {
      for (const [name, value] of Object.entries(fields)) {
        if (typeof value !== "string" || value.trim() === "") continue;
        for (const shown of scope.querySelectorAll(`[data-sync-field="${CSS.escape(name)}"]`)) showValue(shown, value);
      }
      // A push field the record keeps elsewhere than under its own name says where: `job:information.career.job`.
      const kept = (path) => path.split(".").reduce((value, key) => (value == null ? undefined : value[key]), record);
      for (const shown of scope.querySelectorAll("[data-sync-compose]")) {
        const parts = shown.dataset.syncCompose.split(" ").map((part) => part.split(":"));
        if (!parts.some(([name]) => name in fields)) continue;
        const value = parts.map(([name, path = name]) => String((name in fields ? fields[name] : kept(path)) ?? "").trim())
          .filter(Boolean).join(shown.dataset.syncJoiner ?? " ");
        if (value) showValue(shown, value);
      }
    };
    for (const entry of waiting) {
      const { type, op, uuid } = entry.mutation;
      const kind = plan[type];
      if (!kind) continue;
      if (op === "create") {
        // Its list: the page its form led to, or a list that holds what it is made with (a category's).
        const list = main.querySelector(`[data-offline-search="${CSS.escape(type)}"]`);
        if (!list) continue;
        const [field, value] = (list.dataset.offlineHolds || "").split("=");
        const holds = field && String(entry.mutation.fields[field]) === value;
        if (!holds && entry.then !== location.pathname + location.search) continue;
        const row = document.createElement(list.tagName === "TABLE" ? "tr" : "li");
        row.className = "waiting-new";
        row.dataset.waitingMark = "";
        const name = document.createElement("strong");
        name.textContent = entry.summary;
        row.append(name, " ", mark("Made on this device, not sent yet"));
        list.prepend(row);
        if (list.hidden) list.dataset.wasHidden = "";
        list.hidden = false;
        continue;
      }
      // By the copy's own key: a page load with changes waiting reads only their records.
      const record = await LocifyStore.recordByUUID(type, uuid);
      if (!record || !kind.page) continue;
      const page = kind.page.replace("{id}", record.id);
      const text = op === "delete" ? "Deleted on this device, not sent yet" : "Changed on this device, not sent yet";
      if (location.pathname === page) {
        if (op === "update") showValues(main, entry.mutation.fields, record);
        const heading = main.querySelector("h1");
        if (heading && !heading.querySelector("[data-waiting-mark]")) heading.append(" ", mark(text));
      }
      for (const link of main.querySelectorAll(`[data-offline-search] a[href="${CSS.escape(page)}"]`)) {
        const row = link.closest("li, tr") || link;
        if (op === "delete") row.classList.add("waiting-deleted");
        else showValues(row, entry.mutation.fields, record);
        if (!row.querySelector("[data-waiting-mark]")) link.after(" ", mark(text));
      }
    }
  }

  /// An edit form opened from the device's copy shows the changes still waiting for its record.
  async function fillWaiting() {
    for (const form of document.querySelectorAll("form[data-sync-op=update][data-sync-id]")) {
      const kept = await LocifyStore.record(form.dataset.syncType, Number(form.dataset.syncId));
      if (!kept) continue;
      const { waiting } = await LocifyStore.changes();
      for (const entry of waiting) {
        const mutation = entry.mutation;
        if (mutation.uuid !== kept.uuid || mutation.op !== "update") continue;
        for (const [name, value] of Object.entries(mutation.fields)) {
          const control = form.elements[name];
          if (!control || control.type === "hidden") continue;
          if (control.type === "checkbox") control.checked = Boolean(value);
          else if (typeof value === "string") control.value = value;
        }
      }
    }
  }

  /// Logging out removes the device's copy, and with it any change still waiting: the person is asked.
  function confirmLogout(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("logout") || waitingCount === 0) return;
    const question = `${plural(waitingCount, "change", "changes")} made on this device have not reached the ` +
      "server yet. Logging out removes them from this device for good. Log out anyway?";
    if (!window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }

  function start() {
    if (!document.documentElement.dataset.account || !("indexedDB" in window)) return;
    document.addEventListener("submit", submitted);
    // Before the log-out's own handler (locify.js), which clears the device.
    document.addEventListener("submit", confirmLogout, true);
    window.addEventListener("locify:changes", show);
    show().then(fillWaiting).catch(() => {});
    setInterval(() => {
      if (waitingCount > 0) LocifyStore.sync().then(show, show);
    }, retryEvery);
  }

  return { start, show };
})();
document.addEventListener("DOMContentLoaded", LocifyChanges.start);

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
      const status = button.closest("details").querySelector(".copied");
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
  // The address form follows the chosen country at once: its fields are fetched as the server lays them
  // out for that country (the same page the "Show this country's fields" button asks for).
  const picker = document.querySelector("[data-country-picker] select");
  const fields = document.querySelector("[data-address-fields]");
  if (picker && fields) {
    const refresh = document.querySelector("[data-refresh-fields]");
    if (refresh) refresh.hidden = true;
    picker.addEventListener("change", async () => {
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
      if (!fresh) return;
      fields.replaceChildren(...fresh.childNodes);
      for (const input of fields.querySelectorAll("input")) {
        if (typed[input.name] !== undefined) input.value = typed[input.name];
      }
    });
  }
  // A freshly created token is selected so it can be copied at once.
  const token = document.getElementById("new-token-value");
  if (token) { token.focus(); token.select(); }
});

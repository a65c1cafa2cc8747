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
  // A freshly created token is selected so it can be copied at once.
  const token = document.getElementById("new-token-value");
  if (token) { token.focus(); token.select(); }
});

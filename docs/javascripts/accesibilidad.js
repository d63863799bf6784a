// Accessible names for two landmarks Material leaves unnamed (axe: aria-dialog-name,
// landmark-unique): the search dialog and the <nav> that holds each code block's copy button.
(() => {
  const name = () => {
    const search = document.querySelector(".md-search[role=dialog]:not([aria-label])");
    if (search) search.setAttribute("aria-label", "Búsqueda");
    document.querySelectorAll("nav.md-code__nav:not([aria-label])").forEach((nav) => {
      const count = document.querySelectorAll("nav.md-code__nav[aria-label]").length + 1;
      nav.setAttribute("aria-label", `Acciones del bloque de código ${count}`);
    });
  };
  // Material adds the copy buttons after load and again on instant navigation.
  new MutationObserver(name).observe(document.body, { childList: true, subtree: true });
  name();
})();

// kb.language_nav: the language switch keeps the reader's place (the #section of the page).
document.addEventListener("DOMContentLoaded", () => {
  for (const link of document.querySelectorAll("a[data-kb-lang-switch]")) {
    const base = link.getAttribute("href").split("#")[0];
    const update = () => { link.setAttribute("href", base + window.location.hash); };
    update();
    window.addEventListener("hashchange", update);
    link.addEventListener("focus", update);
    link.addEventListener("mouseenter", update);
  }
});

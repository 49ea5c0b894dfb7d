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

// The copy button's Chinese (sphinx-copybutton's `messages`, read when a reader clicks) with the
// full-width punctuation the site writes; tests/test_zh_style.py checks every message it shows.
const KB_COPY_MESSAGES = {
  "zh-CN": {copy_success: "复制成功！"},
};
document.addEventListener("DOMContentLoaded", () => {
  if (typeof messages === "undefined") return;  // no copy button on this page
  for (const [lang, words] of Object.entries(KB_COPY_MESSAGES)) {
    if (messages[lang] === undefined) continue;
    if (typeof iconCheck === "string") {  // the check mark's tooltip, built when copybutton.js ran
      iconCheck = iconCheck.replace(`<title>${messages[lang].copy_success}</title>`,
                                    `<title>${words.copy_success}</title>`);
    }
    Object.assign(messages[lang], words);
  }
});

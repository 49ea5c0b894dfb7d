/* kb (conf.py: html_search_scorer): Sphinx's search scorer, with one change. A page whose own title contains a word of
   the query ranks above pages that only mention it in passing, so that 如何计算梯度 puts the page
   about gradients first. (Sphinx counts a word in any section title the same as in the page
   title, and keeps only the best single word's score per page.) */
var Scorer = {
  score: (result) => {
    const [docname, title, anchor, descr, score] = result;
    const query = new URLSearchParams(window.location.search).get("q") || "";
    const words = (typeof splitQuery === "function" ? splitQuery(query) : query.split(/\s+/))
      .map((w) => w.toLowerCase())
      .filter((w) => w.length > 1);
    const pageTitle = String(title || "").split(" > ")[0].toLowerCase();
    const named = words.filter((w) => pageTitle.includes(w)).length;
    return score + 10 * named;
  },
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};

/* kb: a result's summary comes from the page's prose. Sphinx takes it from the whole [role=main]
   element, which here also holds the header buttons (亮色 暗色 ...), the provenance box (versions
   and the programs' file names), code cells and the previous/next links: drop those first. */
document.addEventListener("DOMContentLoaded", () => {
  if (typeof Search === "undefined" || typeof Search.htmlToText !== "function") return;
  const htmlToText = Search.htmlToText;
  const notProse = [".kb-provenance", ".bd-header-article", ".prev-next-area", ".bd-footer-content",
                    ".bd-sidebar-secondary", "div.cell_input", "div.cell_output", ".onlyprint"];
  Search.htmlToText = (htmlString, anchor) => {
    const page = new DOMParser().parseFromString(htmlString, "text/html");
    page.querySelectorAll(notProse.join(", ")).forEach((el) => el.remove());
    return htmlToText(page.documentElement.outerHTML, anchor);
  };
});

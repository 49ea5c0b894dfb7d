/* kb (conf.py: html_search_scorer): Sphinx's search, ranked for questions, in both languages.

   1. Question words ("how", "vs") are dropped. Which pages hold which words is asked of Sphinx one word at a time, and the pages that hold
      every word the index knows are the results; a word that more than half of the pages hold
      (KB_COMMON: "turn", "print", 运行) does not decide which pages are listed, so "turn off
      TF32" still lists the page about TF32 that never says "turn"; and when every deciding word is
      one that no title of the site holds ("actually", "fake"), they decide nothing either: such a
      word is the reader's phrasing, and the pages are listed by their score. (Sphinx's own check for all the words counts
      only words of three letters or more when some word is missing from the index, so with a
      Chinese query of two-character words, and a word such as the "C" of "C++", it could keep
      pages holding one word and drop those holding three.) A word the index does not know is
      left out, as Sphinx leaves it out.
   2. A page's score adds up what each query word earns on it (Scorer.title for a word in one of
      its titles, Scorer.term for a word in its text, KB_DWELLS more on a page that dwells on the
      word: index.kbdwell, from kb.search, the pages that use it most), weighted by how rare the
      word is among the pages (kbWeight; a word on nearly every page, such as "jax" on this site,
      weighs almost nothing), and a word in the page's own title earns more again (a glossary search word counts there through its term, KB_SEARCH_WORDS.forms
      from kb.search; an English word counts as a whole word of the title, so "in" is not named
      by "Vectorizing"), so that 如何计算梯度 puts the page about gradients first. (Sphinx keeps
      only the best single word's score per page, and counts a word in any section title the same
      as in the page title.) A page with a title that holds the whole query as a phrase ("GPU
      memory", "out-of-memory") earns more again.
   3. A page whose titles hold every rare word of the query (KB_RARE) is listed with the pages that
      hold every word, though its text lacks a commoner word of the question ("goes" in "which
      libtpu version goes with my jax"): the titles say what a page is about.
      When fewer than KB_ENOUGH pages hold every word, the pages that hold most of the words
      follow, ranked by how many they hold, and a line above the results says so (its words come
      from kb.search, in the page's language).
   4. A glossary term's index entry ranks as a title word, not above the pages that explain it.
   5. A result's summary comes from the page's prose (see the end of this file). */
const KB_ENOUGH = 3;
const KB_COMMON = 0.5; // a word on more than this share of the pages does not decide which pages are listed
// ... nor does an action asked about (kbPhrasing) on more than this share: a verb that a quarter of
// the pages use is one of the prose (实现, 打开), not what a page is about (冻结, 关掉)
const KB_COMMON_ACTION = 0.25;
const KB_RARE = 0.1; // a word on at most this share of the pages says what the query is about (3, titles)
const KB_EVERYWHERE = 0.9; // a word on more than this share of the pages weighs less and less, down to 0
const KB_DWELLS = 5; // what a word earns on a page that dwells on it, besides Scorer.term or Scorer.title
// Words of an English question that say nothing about its subject (Sphinx's English stopwords
// are only "a", "the", "of" and the like), as Sphinx's stemmer leaves them: dropped from the
// query unless nothing else is left; "equivalent" ("torch.manual_seed equivalent") asks for the
// JAX way of the name beside it, which the other words say. (kb-search-zh.js has the Chinese ones.)
const KB_QUESTION_WORDS = new Set(["how", "do", "doe", "i", "my", "what", "why", "when", "which", "can", "should", "equival",
                                   "vs", "versu", "us", "way", "get"]);
const KB_PER_WORD = 100; // a page that holds one more of the query's words ranks above any that holds fewer

const kbWords = () => (typeof KB_SEARCH_WORDS !== "undefined" ? KB_SEARCH_WORDS : {});
// The words of the last query that ask what to do rather than about what (kb-search-zh.js: 实现 in
// KV 缓存怎么实现); they add to a page's score, and decide which pages are listed only when rare
// (KB_COMMON_ACTION).
const kbPhrasing = () => (typeof KB_PHRASING !== "undefined" ? KB_PHRASING : new Set());
// The share of the pages that hold a word (in a title or in the text), kept per index.
const kbShares = { index: null, shares: new Map() };
const kbShare = (word) => {
  if (typeof Search === "undefined" || !Search._index) return 0;
  const index = Search._index;
  if (kbShares.index !== index) Object.assign(kbShares, { index, shares: new Map() });
  if (!kbShares.shares.has(word)) {
    const files = new Set([].concat(index.terms[word] ?? [], index.titleterms[word] ?? []));
    kbShares.shares.set(word, files.size / index.docnames.length);
  }
  return kbShares.shares.get(word);
};
// How much a word tells: log(1 + pages / pages holding it), so that 梯度 counts for more than 计算;
// above KB_EVERYWHERE of the pages it fades to 0 (on nearly every page, a word tells nothing).
const kbWeight = (word) => {
  if (typeof Search === "undefined" || !Search._index) return 1;
  const share = kbShare(word);
  if (!share) return 1;
  return Math.log(1 + 1 / share) * Math.min(1, (1 - share) / (1 - KB_EVERYWHERE));
};
const kbPlain = (text) => (text.toLowerCase().match(/[\p{Letter}\p{Number}_]+/gu) || []).join(" ");
const kbStems = new Map();
const kbStem = (word) => {
  if (typeof Stemmer !== "function") return word;
  if (!kbStems.has(word)) kbStems.set(word, new Stemmer().stemWord(word));
  return kbStems.get(word);
};
// Whether the index knows a word (stop words, and words no page holds, are not in it).
const kbKnown = (word) => typeof Search !== "undefined" && !!Search._index
  && (word in Search._index.terms || word in Search._index.titleterms);
// Whether a title names a word: an English word as a whole word of the title, stemmed; a phrase
// as a phrase; a Chinese word as a part of the title.
const kbNames = (title, word) => {
  const form = word.toLowerCase();
  if (/[\u3400-\u9fff]/.test(form)) return title.includes(form);
  const plain = kbPlain(form);
  if (plain.includes(" ")) return ` ${kbPlain(title)} `.includes(` ${plain} `);
  return kbPlain(title).split(" ").some((part) => kbStem(part) === kbStem(plain));
};

var Scorer = {
  score: (result) => {
    const [docname, title, anchor, descr, indexScore, filename, kind] = result;
    // An index entry (a glossary term's definition) scores 100 × the share of the entry the query
    // covers in Sphinx: it would outrank the pages that explain the term. Count it as one title word.
    const score = kind === "index" ? Math.min(indexScore, Scorer.title) : indexScore;
    const query = new URLSearchParams(window.location.search).get("q") || "";
    const words = (typeof splitQuery === "function" ? splitQuery(query) : query.split(/\s+/))
      .map((w) => w.toLowerCase())
      .filter((w) => w.length > 1 || /[\u3400-\u9fff]/.test(w));
    const forms = kbWords().forms || {};
    const pageTitle = String(title || "").split(" > ")[0].toLowerCase();
    const named = words.filter((w) => kbKnown(kbStem(w)) && [w, ...(forms[w] || [])].some((f) => kbNames(pageTitle, f)));
    return score + named.reduce((sum, w) => sum + 10 * kbWeight(kbStem(w)), 0);
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

// Installed as soon as this file runs (language_data.js comes after searchtools.js), before
// Search.init runs the query of the address on DOMContentLoaded.
const kbRankForQuestions = () => {
  if (typeof Search === "undefined" || typeof Search.performTermsSearch !== "function") return;
  const oneWord = Search.performTermsSearch;
  const holds = (entry, file) => entry !== undefined && (entry === file || (Array.isArray(entry) && entry.includes(file)));
  // What one word earns on one page: in a title, in the text, or (a partial match) Sphinx's score;
  // more on a page that dwells on the word.
  const earns = (word, result) => {
    const index = Search._index;
    const file = index.docnames.indexOf(result[0]);
    const dwells = holds((index.kbdwell || {})[word], file) ? KB_DWELLS : 0;
    if (holds(index.titleterms[word], file)) return Scorer.title + dwells;
    if (holds(index.terms[word], file)) return Scorer.term + dwells;
    return result[4];
  };

  Search.performTermsSearch = (searchTerms, excludedTerms) => {
    document.querySelectorAll("#search-results .kb-search-partial").forEach((el) => el.remove());
    const pages = new Map(); // docname -> {result, words, score}
    const known = [];
    const subject = [...searchTerms].filter((w) => !KB_QUESTION_WORDS.has(w));
    for (const word of (subject.length ? subject : searchTerms)) {
      const found = oneWord(new Set([word]), excludedTerms);
      if (found.length) known.push(word);
      for (const r of found) {
        if (!pages.has(r[0])) pages.set(r[0], { result: r, words: [], score: 0 });
        const page = pages.get(r[0]);
        page.words.push(word);
        page.score += earns(word, r) * kbWeight(word);
      }
    }
    // A page with a title that holds the whole query as a phrase ("GPU memory") earns more again.
    const phrase = kbPlain(new URLSearchParams(window.location.search).get("q") || "");
    if (phrase.includes(" ")) {
      for (const [title, where] of Object.entries(Search._index.alltitles || {})) {
        if (!kbPlain(title).includes(phrase)) continue;
        for (const [file] of where) {
          const page = pages.get(Search._index.docnames[file]);
          if (page) page.score += 2 * Scorer.title * known.length;
        }
      }
    }
    // The words that decide which pages are listed: not those that most pages hold, and not only
    // words that no title holds (a word that only some pages' text uses, such as "actually" or
    // "fake", is the reader's phrasing, not the subject of a page; it still adds to the score).
    const deciding = known.filter((w) => kbShare(w) <= (kbPhrasing().has(w) ? KB_COMMON_ACTION : KB_COMMON));
    const named = deciding.filter((w) => w in Search._index.titleterms);
    const needed = named.length ? deciding : deciding.length ? [] : known;
    for (const p of pages.values()) p.held = p.words.filter((w) => needed.includes(w)).length;
    // A page whose titles hold every rare word of the query (KB_RARE: "libtpu", not "version" or
    // "goes") is about what the query asks, though its text may lack a commoner word of the
    // reader's phrasing: it is listed with the pages that hold every word, ranked by its score.
    const rare = needed.filter((w) => kbShare(w) <= KB_RARE);
    const titled = (p) => rare.length > 0 && p.held < needed.length
      && rare.every((w) => holds(Search._index.titleterms[w], Search._index.docnames.indexOf(p.result[0])));
    const all = [...pages.values()].filter((p) => p.held === needed.length || titled(p));
    const result = (p, bonus) => {
      p.result[4] = p.score + bonus;
      return p.result;
    };
    if (all.length >= KB_ENOUGH || needed.length < 2) return all.map((p) => result(p, 0));

    // 3: the pages that hold most of the words
    const partial = [...pages.values()].filter((p) => p.held < needed.length);
    const most = Math.max(0, ...partial.map((p) => p.held));
    const enough = Math.min(most, Math.ceil(needed.length / 2));
    const extra = partial.filter((p) => p.held >= enough && enough > 0);
    if (!extra.length) return all.map((p) => result(p, 0));
    const note = document.createElement("p");
    note.className = "kb-search-partial";
    note.textContent = kbWords().partial || "No page holds every word of your search; these pages hold most of them.";
    const list = document.querySelector("#search-results ul.search");
    if (list) list.parentNode.insertBefore(note, list);
    return all.concat(extra).map((p) => result(p, KB_PER_WORD * p.held));
  };
};
if (typeof Search !== "undefined") kbRankForQuestions();
else document.addEventListener("DOMContentLoaded", kbRankForQuestions);

/* 5: a result's summary comes from the page's prose. Sphinx takes it from the whole [role=main]
   element, which here also holds the header buttons (亮色 暗色 ...), the header box (versions
   and the programs' file names), code cells, the previous/next links and the backend status
   table (program file names by page, on reference/backends): drop those first. */
document.addEventListener("DOMContentLoaded", () => {
  if (typeof Search === "undefined" || typeof Search.htmlToText !== "function") return;
  const htmlToText = Search.htmlToText;
  const notProse = [".kb-header", ".kb-backends-table", ".bd-header-article", ".prev-next-area", ".bd-footer-content",
                    ".bd-sidebar-secondary", "div.cell_input", "div.cell_output", ".onlyprint"];
  Search.htmlToText = (htmlString, anchor) => {
    const page = new DOMParser().parseFromString(htmlString, "text/html");
    page.querySelectorAll(notProse.join(", ")).forEach((el) => el.remove());
    return htmlToText(page.documentElement.outerHTML, anchor);
  };
});

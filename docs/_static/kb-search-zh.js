/* kb.search_zh: split a query with the search index's own vocabulary, longest match first, so
   that a Chinese sentence becomes the index terms it contains; Latin words split as usual.
   Sphinx places this code (js_splitter_code) inside language_data.js of the Chinese build, after
   KB_TRADITIONAL (kb.search_zh writes it there). Before it is cut, a query is made the text the
   site writes:
   - full-width letters, digits and punctuation become their ASCII forms (NFKC: ＧＰＵ is GPU);
   - a character typed in traditional script becomes the simplified one the site writes
     (KB_TRADITIONAL: pairs of characters, from OpenCC's table, docs/_data/zh_traditional.tsv);
   - in a query that holds Chinese, a glossary term written in English ("gradient clipping",
     "data parallelism") becomes the Chinese term the pages use (KB_SEARCH_WORDS.english, from
     kb.search on the search page), where that term is a word of the index. A query with no Chinese
     (a pasted error line) is left as it is, and so is a word inside a name (jax.devices). */
// Words a question is made of that say nothing about its subject ("how do I ... ?").
var KB_QUERY_STOPWORDS = new Set(["如何", "怎么", "怎样", "什么", "为什么", "哪些", "是否", "可以", "能否", "我们", "我的", "一个", "这个", "那个", "使用", "进行", "需要", "时候", "怎么办", "怎么样", "怎么写", "是不是", "能不能", "有没有", "特别", "一下", "有关", "下来", "别的", "不想", "自己", "里面", "的话", "还是", "一些", "知道", "不一样", "不能", "没法", "哪个", "哪种", "哪一个", "选哪个", "到底", "真的", "为啥", "咋办", "应该", "该用", "要不要", "会不会", "对应", "什么样", "有什么", "请问", "为何", "是什么", "怎么用", "如何用", "哪里", "有啥", "咋样", "有办法", "没办法", "办法"]);
// Single characters that glue a sentence together (particles, pronouns, 是, 在, 和): dropped as
// cheaply as a question word, so that a cut never takes a fragment of the index such as 组和 or
// 数是 (jieba's guesses at unknown words in the pages) just to cover one of them.
var KB_PARTICLES = new Set([..."的了吗呢吧啊呀嘛哦么得地着过把被给让将在和与及或是就都也还又很太我你他它们这那啥咋"]);
// The question words that ask how to do something: the word right after one is the action asked
// about (怎么实现, 如何计算, 怎么打开), which a page that answers may not say (it says 用 or nothing);
// such a word is put in KB_PHRASING: kb-scorer.js lets it add to a page's score, and decide which
// pages are listed only when few pages hold it (KB_COMMON_ACTION: 冻结 does, 实现 does not).
var KB_HOW = new Set(["如何", "怎么", "怎样", "咋", "怎么才能", "如何才能"]);
var KB_PHRASING = new Set();
var KB_LONGEST_TERM = 12;
// A run of Chinese characters is cut into the fewest pieces, each a word of the index or a
// question word, with as few characters left out as possible (each costs KB_UNKNOWN_CHARACTER);
// among such cuts, the one whose words more pages hold wins (a unigram model: a word is as
// likely as the share of the pages that hold it). A greedy longest match took whatever index
// word came first: 不同层设置 became 不同 + 层设 + 置, where 层设 is a fragment that one page happens
// to hold, and lost the word 设置. KB_PIECE keeps whole terms whole (数据并行, not 数据 + 并行).
var KB_PIECE = 6; // what a piece costs, more than any word's log-likelihood on a site of fewer than 400 pages
var KB_UNKNOWN_CHARACTER = -20;
var kbTraditional = null; // traditional character -> simplified, from KB_TRADITIONAL
var kbSimplified = (text) => {
  if (kbTraditional === null) {
    const pairs = typeof KB_TRADITIONAL === "string" ? [...KB_TRADITIONAL] : [];
    kbTraditional = new Map();
    for (let i = 0; i + 1 < pairs.length; i += 2) kbTraditional.set(pairs[i], pairs[i + 1]);
  }
  return [...text].map((c) => kbTraditional.get(c) ?? c).join("");
};
var kbEscape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// The glossary's English terms in a Chinese query, as the Chinese terms the pages use.
var kbPatterns = { english: null, patterns: [] }; // compiled once per page
var kbGlossaryTerms = (query, known) => {
  const english = (typeof KB_SEARCH_WORDS !== "undefined" && KB_SEARCH_WORDS.english) || {};
  if (!/[\u3400-\u9fff]/.test(query)) return query;
  if (kbPatterns.english !== english) {
    const phrases = Object.keys(english).sort((a, b) => b.length - a.length);
    kbPatterns.english = english;
    kbPatterns.patterns = phrases.map((phrase) => {
      const words = phrase.split(/[\s-]+/).map(kbEscape).join("[\\s-]+"); // "data loader", not DataLoader (a name the pages write)
      return [new RegExp(`(^|[^a-z0-9_.])${words}(?:e?s)?(?![a-z0-9_.])`, "gi"), english[phrase]];
    });
  }
  for (const [pattern, terms] of kbPatterns.patterns) {
    pattern.lastIndex = 0;
    if (!pattern.test(query)) continue;
    const chinese = terms.find((term) => (term.match(/[\u3400-\u9fff]+/g) || []).every(known));
    if (chinese !== undefined) query = query.replace(pattern, (_, before) => `${before} ${chinese} `);
  }
  return query;
};
// The last query's words and actions: the scorer splits the query again for every result.
var kbLastSplit = { query: null, index: null, english: null, words: [], phrasing: new Set() };
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) ? Search._index : null;
  const english = typeof KB_SEARCH_WORDS !== "undefined" ? KB_SEARCH_WORDS.english : undefined;
  const last = kbLastSplit;
  if (last.query === query && last.index === index && last.english === english) {
    KB_PHRASING = new Set(last.phrasing);
    return [...last.words];
  }
  const pages = (w) => {
    if (index === null) return 0;
    return new Set([].concat(index.terms[w] ?? [], index.titleterms[w] ?? [])).size;
  };
  const original = query;
  query = kbGlossaryTerms(kbSimplified(query.normalize("NFKC")), (w) => pages(w) > 0);
  const out = [];
  KB_PHRASING = new Set();
  const chunks = query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu).filter((t) => t);
  for (const chunk of chunks) {
    for (const part of chunk.match(/[\u3400-\u9fff]+|[^\u3400-\u9fff]+/g) || []) {
      if (!/[\u3400-\u9fff]/.test(part)) { out.push(part); continue; }
      const total = index === null ? 1 : index.docnames.length;
      // best[i]: [log-likelihood, pieces] of the best cut of part.slice(0, i)
      const best = [[0, []]];
      for (let j = 1; j <= part.length; j++) {
        best[j] = [best[j - 1][0] + KB_UNKNOWN_CHARACTER, best[j - 1][1].concat([""])]; // "": a character left out
        for (let i = Math.max(0, j - KB_LONGEST_TERM); i < j; i++) {
          const piece = part.slice(i, j);
          const dropped = KB_QUERY_STOPWORDS.has(piece) || KB_PARTICLES.has(piece);
          let score = null;
          if (dropped) score = -KB_PIECE; // dropped whole even where the index lacks it (不一样, not 不一 + 样)
          else if (pages(piece)) score = Math.log(pages(piece) / total) - KB_PIECE; // one character: a search word (kb.search)
          if (score !== null && best[i][0] + score > best[j][0]) {
            // null: a how-word, so that the word right after it is an action asked about; "": a word dropped
            best[j] = [best[i][0] + score, best[i][1].concat([dropped ? (KB_HOW.has(piece) ? null : "") : piece])];
          }
        }
      }
      const pieces = best[part.length][1];
      pieces.forEach((piece, i) => {
        if (piece && i > 0 && pieces[i - 1] === null) KB_PHRASING.add(piece);
      });
      out.push(...pieces.filter((piece) => piece));
    }
  }
  Object.assign(kbLastSplit, { query: original, index, english, words: [...out], phrasing: new Set(KB_PHRASING) });
  return out;
};

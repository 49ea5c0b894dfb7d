/* kb.search_zh: split a query with the search index's own vocabulary, longest match first, so
   that a Chinese sentence becomes the index terms it contains; Latin words split as usual.
   Sphinx places this code (js_splitter_code) inside language_data.js of the Chinese build. */
// Words a question is made of that say nothing about its subject ("how do I ... ?").
var KB_QUERY_STOPWORDS = new Set(["如何", "怎么", "怎样", "什么", "为什么", "哪些", "是否", "可以", "能否", "我们", "我的", "一个", "这个", "那个", "使用", "进行", "需要", "时候", "怎么办", "怎么样", "怎么写", "是不是", "能不能", "有没有", "特别", "一下", "有关", "下来", "别的", "不想", "自己", "里面", "的话", "还是", "一些", "知道", "不一样", "不能", "没法", "哪个", "哪种", "哪一个", "选哪个", "到底", "真的", "为啥", "咋办", "应该", "该用", "要不要", "会不会", "对应", "什么样", "有什么"]);
var KB_LONGEST_TERM = 12;
// A run of Chinese characters is cut into the fewest pieces, each a word of the index or a
// question word, with as few characters left out as possible (each costs KB_UNKNOWN_CHARACTER);
// among such cuts, the one whose words more pages hold wins (a unigram model: a word is as
// likely as the share of the pages that hold it). A greedy longest match took whatever index
// word came first: 不同层设置 became 不同 + 层设 + 置, where 层设 is a fragment that one page happens
// to hold, and lost the word 设置. KB_PIECE keeps whole terms whole (数据并行, not 数据 + 并行).
var KB_PIECE = 6; // what a piece costs, more than any word's log-likelihood on a site of fewer than 400 pages
var KB_UNKNOWN_CHARACTER = -20;
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) ? Search._index : null;
  const pages = (w) => {
    if (index === null) return 0;
    return new Set([].concat(index.terms[w] ?? [], index.titleterms[w] ?? [])).size;
  };
  const out = [];
  const chunks = query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu).filter((t) => t);
  for (const chunk of chunks) {
    for (const part of chunk.match(/[\u3400-\u9fff]+|[^\u3400-\u9fff]+/g) || []) {
      if (!/[\u3400-\u9fff]/.test(part)) { out.push(part); continue; }
      const total = index === null ? 1 : index.docnames.length;
      // best[i]: [log-likelihood, pieces] of the best cut of part.slice(0, i)
      const best = [[0, []]];
      for (let j = 1; j <= part.length; j++) {
        best[j] = [best[j - 1][0] + KB_UNKNOWN_CHARACTER, best[j - 1][1]];
        for (let i = Math.max(0, j - KB_LONGEST_TERM); i < j; i++) {
          const piece = part.slice(i, j);
          let score = null;
          if (KB_QUERY_STOPWORDS.has(piece)) score = -KB_PIECE; // dropped whole even where the index lacks it (不一样, not 不一 + 样)
          else if (pages(piece)) score = Math.log(pages(piece) / total) - KB_PIECE; // one character: a search word (kb.search)
          if (score !== null && best[i][0] + score > best[j][0]) {
            best[j] = [best[i][0] + score, KB_QUERY_STOPWORDS.has(piece) ? best[i][1] : best[i][1].concat([piece])];
          }
        }
      }
      out.push(...best[part.length][1]);
    }
  }
  return out;
};

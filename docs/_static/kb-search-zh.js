/* kb.search_zh: split a query with the search index's own vocabulary, longest match first, so
   that a Chinese sentence becomes the index terms it contains; Latin words split as usual.
   Sphinx places this code (js_splitter_code) inside language_data.js of the Chinese build. */
// Words a question is made of that say nothing about its subject ("how do I ... ?").
var KB_QUERY_STOPWORDS = new Set(["如何", "怎么", "怎样", "什么", "为什么", "哪些", "是否", "可以", "能否", "我们", "我的", "一个", "这个", "那个", "使用", "进行", "需要", "时候", "怎么办", "怎么样", "怎么写", "是不是", "能不能", "有没有", "特别", "一下", "有关", "下来", "别的", "不想", "自己", "里面", "的话", "还是", "一些", "知道", "不一样", "不能", "没法"]);
var KB_LONGEST_TERM = 12;
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) ? Search._index : null;
  const known = (w) => index !== null && (w in index.terms || w in index.titleterms);
  const out = [];
  const chunks = query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu).filter((t) => t);
  for (const chunk of chunks) {
    for (const part of chunk.match(/[\u3400-\u9fff]+|[^\u3400-\u9fff]+/g) || []) {
      if (!/[\u3400-\u9fff]/.test(part)) { out.push(part); continue; }
      let i = 0;
      while (i < part.length) {
        let found = "";
        for (let j = Math.min(part.length, i + KB_LONGEST_TERM); j > i; j--) {  // one character: a search word (kb.search)
          // A question word is dropped whole even where the index lacks it (不一样, not 不一 + 样).
          if (known(part.slice(i, j)) || KB_QUERY_STOPWORDS.has(part.slice(i, j))) { found = part.slice(i, j); break; }
        }
        if (found) {
          if (!KB_QUERY_STOPWORDS.has(found)) out.push(found);
          i += found.length;
        } else {
          i += 1;  // a character no indexed word starts with here
        }
      }
    }
  }
  return out;
};

"""kb_reader: what a reader of the two-language site meets first.

- A language switch on every page that opens the same page (and section) in the other language,
  and ``hreflang`` alternates, Open Graph tags, a sitemap and a 404 page for each language.
- Chinese search that works: jieba is required in the Chinese build; a domain dictionary made from
  ``../shared/GLOSSARY.tsv`` and the Chinese page titles keeps terms such as 自动微分 whole in the
  index; and the browser segments a query with the index's own vocabulary (longest match first),
  so that a sentence such as 如何计算梯度 finds the pages about 梯度.
- Downloads: each executed page offers its snippets as ``.py`` files and itself as ``.ipynb``.
"""

from __future__ import annotations

import csv
import logging as std_logging
import html
import json
import re
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.search.zh import SearchChinese
from sphinx.util import logging

logger = logging.getLogger(__name__)

LANGUAGE_NAMES = {"en": "English", "zh_CN": "简体中文"}
HREFLANG = {"en": "en", "zh_CN": "zh-CN"}
OG_LOCALE = {"en": "en_US", "zh_CN": "zh_CN"}
WORDS = {
    "en": {"switch": "Read this page in English", "downloads": "Download: ", "then": " · ", "colon": ": ",
           "comma": ", ", "notebook": "this page as a notebook",
           "snippets": "its programs", "404_title": "Page not found",
           "404_text": "There is no page at this address. It may have moved when the site was reorganised.",
           "404_home": "Go to the start page"},
    "zh_CN": {"switch": "阅读本页中文版", "downloads": "下载：", "then": "；", "colon": "：", "comma": "、", "notebook": "本页（Jupyter notebook）",
              "snippets": "本页的程序", "404_title": "页面不存在",
              "404_text": "这个地址没有页面，可能在网站调整结构时移动了位置。", "404_home": "回到首页"},
}
CJK = re.compile(r"[\u3400-\u9fff]")


# ---------------------------------------------------------------------------------------------
# Chinese search
# ---------------------------------------------------------------------------------------------

# Words a question is made of that say nothing about its subject ("how do I ... ?").
QUERY_STOPWORDS = ["如何", "怎么", "怎样", "什么", "为什么", "哪些", "是否", "可以", "能否", "我们", "我的",
                   "一个", "这个", "那个", "使用", "进行", "需要", "时候"]

SPLITTER_JS = """
/* kb_reader: split a query with the search index's own vocabulary, longest match first, so that
   a Chinese sentence becomes the index terms it contains; Latin words split as usual. */
var KB_QUERY_STOPWORDS = new Set(%(stopwords)s);
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) ? Search._index : null;
  const known = (w) => index !== null && (w in index.terms || w in index.titleterms);
  const out = [];
  const chunks = query.split(/[^\\p{Letter}\\p{Number}_\\p{Emoji_Presentation}]+/gu).filter((t) => t);
  for (const chunk of chunks) {
    for (const part of chunk.match(/[\\u3400-\\u9fff]+|[^\\u3400-\\u9fff]+/g) || []) {
      if (!/[\\u3400-\\u9fff]/.test(part)) { out.push(part); continue; }
      let i = 0;
      while (i < part.length) {
        let found = "";
        for (let j = Math.min(part.length, i + %(longest)d); j > i + 1; j--) {
          if (known(part.slice(i, j))) { found = part.slice(i, j); break; }
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
"""


class KbSearchChinese(SearchChinese):
    """Sphinx's Chinese search, with a query splitter that uses the index's vocabulary."""

    js_splitter_code = SPLITTER_JS % {"stopwords": json.dumps(QUERY_STOPWORDS, ensure_ascii=False), "longest": 12}


def glossary_terms(tsv: Path) -> list[str]:
    """Chinese terms of the shared glossary, each alternative and parenthesised part on its own.

    >>> import tempfile, os
    >>> path = Path(tempfile.mkdtemp()) / "g.tsv"
    >>> _ = path.write_text("english\\tchinese\\tnote\\nsharding\\t分片\\t\\n"
    ...                     "leaf\\t叶子（叶节点）\\t\\nflatten / unflatten\\t展平 / 还原\\t\\n"
    ...                     "JIT\\t即时编译（JIT）\\t\\n", encoding="utf-8")
    >>> glossary_terms(path)
    ['分片', '叶子', '叶节点', '展平', '还原', '即时编译']
    """
    terms: list[str] = []
    with tsv.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            for part in re.split(r"[（）()/、，,]", row.get("chinese") or ""):
                part = part.strip()
                if CJK.search(part) and part not in terms:
                    terms.append(part)
    return terms


def page_title_terms(srcdir: Path, locale_dir: Path) -> list[str]:
    """Short Chinese page titles (the translations of each page's `# Title`)."""
    import polib

    terms = []
    for page in sorted(srcdir.rglob("*.md")):
        rel = page.relative_to(srcdir)
        if {"_build", "locales", "_ext"} & set(rel.parts):
            continue
        match = re.search(r"^# (.+)$", page.read_text(encoding="utf-8"), re.M)
        po = locale_dir / rel.with_suffix(".po")
        if not match or not po.exists():
            continue
        entry = polib.pofile(str(po)).find(match.group(1).strip())
        if entry and entry.msgstr:
            chinese = re.sub(r"（[^）]*）|\([^)]*\)|`[^`]*`", "", entry.msgstr)
            for part in re.split(r"[\s：:，,、与和及]+", chinese):
                if CJK.search(part) and 2 <= len(part) <= 10 and not re.search(r"[A-Za-z]", part):
                    terms.append(part)
    return terms


def glossary_path(root: Path) -> Path:
    """The team's glossary (../shared beside the repository), else the copy in docs/_data/."""
    shared = root.parent / "shared" / "GLOSSARY.tsv"
    return shared if shared.exists() else root / "docs" / "_data" / "GLOSSARY.tsv"


def write_search_dictionary(app: Sphinx) -> Path:
    """A jieba user dictionary: glossary terms and short page titles, kept whole when indexed."""
    terms = glossary_terms(glossary_path(Path(app.confdir)))
    terms += page_title_terms(Path(app.srcdir), Path(app.srcdir) / "locales" / "zh_CN" / "LC_MESSAGES")
    path = Path(app.doctreedir) / "kb_search_dict.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{term} 100000 n" for term in dict.fromkeys(terms)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def on_builder_inited(app: Sphinx) -> None:
    if not (app.config.language or "en").startswith("zh") or app.builder.format != "html":
        return
    try:
        import jieba
    except ImportError as error:
        raise ExtensionError(
            "The Chinese build needs jieba for its search index (without it Sphinx silently indexes "
            "no Chinese words): pip install -r requirements.txt"
        ) from error
    jieba.setLogLevel(std_logging.WARNING)  # no "Building prefix dict..." on stderr
    path = write_search_dictionary(app)
    # The search index (and its jieba) is made later, when writing starts.
    app.config.html_search_options = {**(app.config.html_search_options or {}), "dict": str(path)}


# ---------------------------------------------------------------------------------------------
# Links from API names in prose to the official API reference
# ---------------------------------------------------------------------------------------------

ALIASES = {"jnp": "jax.numpy", "lax": "jax.lax", "nnx": "flax.nnx", "jr": "jax.random"}
JAX_API = "https://docs.jax.dev/en/latest/_autosummary/{name}.html"
OPTAX_OPTIMIZERS = "https://optax.readthedocs.io/en/latest/api/optimizers.html#optax.{attr}"
FLAX_API = {
    "flax.nnx.Optimizer": "https://flax.readthedocs.io/en/latest/api_reference/flax.nnx/training/optimizer.html"
    "#flax.nnx.optimizer.Optimizer",
}
API_NAME = re.compile(r"^([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?$")
_API_CACHE: dict[str, str | None] = {}


def _resolve(name: str):
    import importlib

    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except Exception:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr, None)
            if obj is None:
                return None
        return obj
    return None


def api_url(text: str) -> str | None:
    """The official reference page for an API name written in prose, if we know it.

    Names must exist in the pinned packages (they are imported and looked up), so a link never
    points at an API this site's versions do not have.

    >>> api_url("jax.jit")
    'https://docs.jax.dev/en/latest/_autosummary/jax.jit.html'
    >>> api_url("jnp.where(mask, 0, x)")
    'https://docs.jax.dev/en/latest/_autosummary/jax.numpy.where.html'
    >>> api_url("optax.adam")
    'https://optax.readthedocs.io/en/latest/api/optimizers.html#optax.adam'
    >>> api_url("jax.tree_map") is None, api_url("x.at") is None, api_url("params") is None
    (True, True, True)
    """
    match = API_NAME.match(text.strip())
    if not match:
        return None
    name = match.group(1)
    head, _, rest = name.partition(".")
    name = f"{ALIASES.get(head, head)}.{rest}"
    if name in _API_CACHE:
        return _API_CACHE[name]
    url = None
    if name in FLAX_API:
        url = FLAX_API[name]
    elif name.startswith("jax."):
        obj = _resolve(name)
        module = getattr(obj, "__module__", "") or ""
        if obj is not None and (callable(obj) or isinstance(obj, type)) and module.startswith("jax"):
            url = JAX_API.format(name=name)
    elif name.startswith("optax.") and name.count(".") == 1:
        obj = _resolve(name)
        if obj is not None and "optax._src.alias" in (getattr(obj, "__module__", "") or ""):
            url = OPTAX_OPTIMIZERS.format(attr=name.split(".")[1])
    _API_CACHE[name] = url
    return url


def link_api_names(app: Sphinx, doctree: nodes.document) -> None:
    """Turn inline code that names a known API (``jax.jit``) into a link to its reference page."""
    for literal in list(doctree.findall(nodes.literal)):
        parent = literal.parent
        if isinstance(parent, (nodes.reference, nodes.title, addnodes.download_reference)) or parent is None:
            continue
        if any(isinstance(a, (nodes.title, nodes.reference, nodes.literal_block)) for a in _ancestors(literal)):
            continue
        url = api_url(literal.astext())
        if url:
            ref = nodes.reference("", "", refuri=url, classes=["kb-api"], reftitle=url)
            parent.replace(literal, ref)
            ref += literal


def _ancestors(node: nodes.Node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


# ---------------------------------------------------------------------------------------------
# Language switch, alternates, Open Graph, downloads
# ---------------------------------------------------------------------------------------------


def other_language(language: str) -> str:
    return "zh_CN" if language == "en" else "en"


def language_url(pagename: str, target: str) -> str:
    """Relative URL of the same page in the language build `target` (a sibling folder).

    >>> language_url("core/jit", "zh_CN")
    '../../zh_CN/core/jit.html'
    >>> language_url("index", "en")
    '../en/index.html'
    """
    depth = pagename.count("/") + 1
    return "../" * depth + f"{target}/{pagename}.html"


def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    """Remember the first paragraph (for og:description) and add the downloads line."""
    env = app.env
    first = next((p for p in doctree.findall(nodes.paragraph)
                  if "kb-provenance" not in (p.parent.get("classes", []) if p.parent else [])), None)
    descriptions = env.__dict__.setdefault("kb_descriptions", {})
    if first is not None:
        descriptions[env.docname] = " ".join(first.astext().split())[:300]
    add_downloads(app, doctree)
    link_api_names(app, doctree)


def add_downloads(app: Sphinx, doctree: nodes.document) -> None:
    boxes = [n for n in doctree.findall(nodes.container) if "kb-provenance" in n.get("classes", [])]
    cells = [n for n in doctree.findall(nodes.container) if n.get("nb_element") == "cell_code"]
    if not boxes or not cells:
        return
    words = WORDS.get(app.config.language, WORDS["en"])
    source = Path(app.env.doc2path(app.env.docname))
    para = nodes.paragraph(classes=["kb-downloads"])
    para += nodes.strong(text=words["downloads"])
    notebook = f"/_kb/notebooks/{app.env.docname}.ipynb"
    para += nodes.reference("", words["notebook"] + " (.ipynb)", refuri=_rel(app.env.docname, notebook.lstrip("/")),
                            classes=["kb-download-ipynb"])
    para += nodes.Text(words["then"] + words["snippets"] + words["colon"])
    seen = []
    for cell in cells:
        load = (cell.get("cell_metadata") or {}).get("load")
        if not load or load in seen:
            continue
        seen.append(load)
        path = (source.parent / load).resolve()
        if len(seen) > 1:
            para += nodes.Text(words["comma"])
        ref = addnodes.download_reference("", "", reftarget=load, refdoc=app.env.docname, refexplicit=True,
                                          classes=["kb-download-py"])
        # Registered by hand: Sphinx's own download collector has already run for this page.
        rel_filename, _ = app.env.relfn2path(load, app.env.docname)
        ref["filename"] = app.env.dlfiles.add_file(app.env.docname, rel_filename).as_posix()
        ref += nodes.literal(path.name, path.name)
        para += ref
    boxes[0] += para


def _rel(pagename: str, target: str) -> str:
    return "../" * pagename.count("/") + target


def on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    language = app.config.language or "en"
    other = other_language(language)
    context["kb_lang_switch"] = {
        "url": language_url(pagename, other),
        "hreflang": HREFLANG[other],
        "label": LANGUAGE_NAMES[other],
        "title": WORDS[other]["switch"],
    }
    if pagename == "404":
        words = WORDS.get(language, WORDS["en"])
        context.update(title=words["404_title"], kb_404_title=words["404_title"], kb_404_text=words["404_text"],
                       kb_404_home=words["404_home"])
    base = (app.config.html_baseurl or "").rstrip("/")

    def href(lang: str) -> str:
        return f"{base}/{lang}/{pagename}.html" if base else language_url(pagename, lang)
    tags = [f'<link rel="alternate" hreflang="{HREFLANG[lang]}" href="{href(lang)}">' for lang in LANGUAGE_NAMES]
    tags.append(f'<link rel="alternate" hreflang="x-default" href="{href("en")}">')
    title = html.unescape(re.sub(r"<[^>]+>", "", context.get("title") or ""))
    description = getattr(app.env, "kb_descriptions", {}).get(pagename, "")
    og = {
        "og:title": title,
        "og:type": "article",
        "og:site_name": app.config.html_title,
        "og:locale": OG_LOCALE.get(language, language),
        "og:locale:alternate": OG_LOCALE.get(other, other),
        "og:description": description,
    }
    if base:
        og["og:url"] = href(language)
    tags += [f'<meta property="{k}" content="{html.escape(v, quote=True)}">' for k, v in og.items() if v]
    if description:
        tags.append(f'<meta name="description" content="{html.escape(description, quote=True)}">')
    context["metatags"] = context.get("metatags", "") + "\n".join(tags) + "\n"



def on_env_merge(app, env, docnames, other) -> None:
    env.__dict__.setdefault("kb_descriptions", {}).update(getattr(other, "kb_descriptions", {}))


def on_env_purge(app, env, docname) -> None:
    getattr(env, "kb_descriptions", {}).pop(docname, None)


def on_build_finished(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    copy_notebooks(app, outdir)
    write_sitemap(app, outdir)


def copy_notebooks(app: Sphinx, outdir: Path) -> None:
    """Executed notebooks into _kb/notebooks/, without the hidden provenance cell."""
    folder = Path(app.env.mystnb_config.output_folder)
    for notebook in folder.rglob("*.ipynb"):
        rel = notebook.relative_to(folder)
        data = json.loads(notebook.read_text(encoding="utf-8"))
        data["cells"] = [c for c in data["cells"] if "kb-provenance" not in c.get("metadata", {}).get("tags", [])]
        for cell in data["cells"]:
            cell.get("metadata", {}).pop("execution", None)
        target = outdir / "_kb" / "notebooks" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


def write_sitemap(app: Sphinx, outdir: Path) -> None:
    """A sitemap of this language's pages, each with its alternate in the other language."""
    base = (app.config.html_baseurl or "").rstrip("/")
    language = app.config.language or "en"
    pages = sorted(d for d in app.env.found_docs)
    rows = []
    for page in pages:
        loc = f"{base}/{language}/{page}.html" if base else f"{page}.html"
        links = "".join(
            f'<xhtml:link rel="alternate" hreflang="{HREFLANG[lang]}" '
            f'href="{escape(f"{base}/{lang}/{page}.html" if base else language_url(page, lang))}"/>'
            for lang in LANGUAGE_NAMES
        )
        rows.append(f"<url><loc>{escape(loc)}</loc>{links}</url>")
    (outdir / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "\n".join(rows) + "\n</urlset>\n",
        encoding="utf-8",
    )


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_search_language(KbSearchChinese)
    app.connect("builder-inited", on_builder_inited)
    app.connect("doctree-read", on_doctree_read, priority=600)  # after kb_pipeline's provenance box
    app.connect("env-merge-info", on_env_merge)  # parallel reads (sphinx -j)
    app.connect("env-purge-doc", on_env_purge)
    app.connect("html-page-context", on_html_page_context)
    app.connect("build-finished", on_build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}

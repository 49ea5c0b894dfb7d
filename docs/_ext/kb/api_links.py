"""kb.api_links: API names written in prose link to their official reference pages.

1. Inline code in prose that names an API (``jax.jit``, ``jnp.where(mask, 0, x)``,
   ``optax.adam``) becomes a link to the JAX, optax or Flax reference page for it. The short
   aliases the pages use (jnp, lax, nnx, jr) are expanded first.
2. A name is linked only if it exists in the pinned packages (it is imported and looked up), so a
   link never points at an API this site's versions do not have; anything else stays plain code.
3. Code in titles, in links and in code blocks is left alone.

Why our own code: intersphinx resolves only names written as roles (``{py:obj}``), while the pages
write plain backticks (about 1,700 of them, in both languages' catalogues), so the detection above
is needed either way. intersphinx could do the lookup from inventories committed under
``docs/_data`` (it reads a local ``objects.inv`` with no network), at the cost of refreshing them
with the pins and of other links (anchors, Sphinx's hover titles, names missing from an inventory);
this lookup checks each name against the installed, pinned packages instead (issue 40, F24: kept).
"""

from __future__ import annotations

import functools
import re

from docutils import nodes
from sphinx import addnodes

from .page import ancestors

ALIASES = {"jnp": "jax.numpy", "lax": "jax.lax", "nnx": "flax.nnx", "jr": "jax.random"}
JAX_API = "https://docs.jax.dev/en/latest/_autosummary/{name}.html"
OPTAX_OPTIMIZERS = "https://optax.readthedocs.io/en/latest/api/optimizers.html#optax.{attr}"
FLAX_API = {
    "flax.nnx.Optimizer": "https://flax.readthedocs.io/en/latest/api_reference/flax.nnx/training/optimizer.html"
    "#flax.nnx.optimizer.Optimizer",
}
API_NAME = re.compile(r"^([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?$")


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
    head, _, rest = match.group(1).partition(".")
    return _reference(f"{ALIASES.get(head, head)}.{rest}")


@functools.lru_cache(maxsize=None)
def _reference(name: str) -> str | None:
    """The reference page of a full API name (memoised: pages repeat names)."""
    if name in FLAX_API:
        return FLAX_API[name]
    if name.startswith("jax."):
        obj = _resolve(name)
        module = getattr(obj, "__module__", "") or ""
        if obj is not None and (callable(obj) or isinstance(obj, type)) and module.startswith("jax"):
            return JAX_API.format(name=name)
    elif name.startswith("optax.") and name.count(".") == 1:
        obj = _resolve(name)
        if obj is not None and "optax._src.alias" in (getattr(obj, "__module__", "") or ""):
            return OPTAX_OPTIMIZERS.format(attr=name.split(".")[1])
    return None


def link_api_names(app, doctree: nodes.document) -> None:
    """Turn inline code that names a known API (``jax.jit``) into a link to its reference page."""
    for literal in list(doctree.findall(nodes.literal)):
        parent = literal.parent
        if isinstance(parent, (nodes.reference, nodes.title, addnodes.download_reference)) or parent is None:
            continue
        if any(isinstance(a, (nodes.title, nodes.reference, nodes.literal_block)) for a in ancestors(literal)):
            continue
        url = api_url(literal.astext())
        if url:
            ref = nodes.reference("", "", refuri=url, classes=["kb-api"], reftitle=url)
            parent.replace(literal, ref)
            ref += literal



def setup(app):
    app.connect("doctree-read", link_api_names)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}

"""List every parameter of jax.jit in the installed version, with its default."""
import inspect

import jax

params = inspect.signature(jax.jit).parameters
print("jax", jax.__version__)
for name, p in params.items():
    kind = "positional-only" if p.kind is p.POSITIONAL_ONLY else "keyword-only"
    print(f"  {name:16} {kind:16} default={p.default!r}")

# The parameters this page covers, in signature order.
covered = ["fun", "in_shardings", "out_shardings", "static_argnums", "static_argnames",
           "donate_argnums", "donate_argnames", "keep_unused", "device", "backend",
           "inline", "compiler_options"]
assert list(params) == covered
# Everything after the function must be passed by keyword.
assert all(p.kind is p.KEYWORD_ONLY for name, p in params.items() if name != "fun")
assert "abstracted_axes" not in params  # gone: see the migration note below

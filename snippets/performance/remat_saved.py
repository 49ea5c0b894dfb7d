"""What each checkpoint policy keeps from one attention-style block for the backward pass."""
import contextlib
import io
import math
import re

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name, print_saved_residuals

cp = jax.checkpoint_policies
print("jax.checkpoint_policies:", ", ".join(sorted(n for n in vars(cp) if not n.startswith("_"))))
B, T, D = 4, 256, 64  # the scores (B, T, T) are 4 times the size of q (B, T, D)
kq, ko, kx = jax.random.split(jax.random.key(0), 3)
w = {"q": jax.random.normal(kq, (D, D)) / D**0.5, "o": jax.random.normal(ko, (D, D)) / D**0.5}
h = jax.random.normal(kx, (B, T, D))


def block(w, h):
    q = checkpoint_name(h @ w["q"], "q")  # a dot with no batch dimension, named "q"
    s = jnp.einsum("btd,bsd->bts", q, h)  # a dot with batch dimension b: (B, T, T)
    a = jnp.einsum("bts,bsd->btd", jax.nn.softmax(s / D**0.5), h)  # batch dimension b again
    return h + jnp.tanh(a @ w["o"])  # a dot with no batch dimension


def kept(f):  # the residuals, minus the arguments w and h that every version keeps
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_saved_residuals(f, w, h)
    lines = [re.sub(r" from \S+ \(.*\)$", "", s) for s in out.getvalue().splitlines()]
    return [s for s in lines if "from the argument" not in s]


def kib(lines):  # float32 bytes of the listed arrays, from their shapes
    shapes = [re.search(r"\[([\d,]*)\]", s).group(1) for s in lines]
    return sum(4 * math.prod(int(n) for n in shape.split(",") if n) for shape in shapes) / 1024


policies = {
    "no checkpoint": None,
    "checkpoint_dots": cp.checkpoint_dots,
    "dots_with_no_batch_dims_saveable": cp.dots_with_no_batch_dims_saveable,
    "save_only_these_names('q')": cp.save_only_these_names("q"),
    "nothing_saveable": cp.nothing_saveable,  # what jax.checkpoint does without a policy
}
saved = {}
for name, policy in policies.items():
    saved[name] = kept(block if policy is None else jax.checkpoint(block, policy=policy))
    print(f"{name}: {len(saved[name])} arrays, {kib(saved[name]):.0f} KiB"
          + "".join(f"\n    {s}" for s in saved[name]))
ignored = kept(jax.checkpoint(block, policy=cp.save_anything_except_these_names("q")))
print("save_anything_except_these_names('q') keeps 'q':", "f32[4,256,64] named 'q'" in ignored)

assert cp.checkpoint_dots is cp.dots_saveable  # two names, one policy
assert saved["nothing_saveable"] == []
assert saved["checkpoint_dots"].count("f32[4,256,256] output of dot_general") == 1  # the scores
assert saved["dots_with_no_batch_dims_saveable"] == ["f32[4,256,64] output of dot_general"] * 2
assert saved["save_only_these_names('q')"] == ["f32[4,256,64] named 'q'"]
sizes = [kib(saved[n]) for n in policies]
assert all(a > b for a, b in zip(sizes, sizes[1:])) and sizes[-1] == 0  # in the order listed
assert ignored == [s for s in saved["no checkpoint"] if "literal" not in s]  # as if no policy

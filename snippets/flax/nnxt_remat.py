"""nnx.remat on each block: the same gradients, fewer activations kept for the backward pass."""
import contextlib
import io
import math
import os
import re

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax
import jax.numpy as jnp
from flax import nnx
from jax.ad_checkpoint import print_saved_residuals


class Block(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(16, 16, rngs=rngs)
        self.l2 = nnx.Linear(16, 16, rngs=rngs)

    def __call__(self, x):
        return jnp.tanh(self.l2(jnp.tanh(self.l1(x))))


@nnx.remat  # the block's inputs are saved; its insides are recomputed in the backward pass
def remat_block(block, x):
    return block(x)


class Net(nnx.Module):
    def __init__(self, remat, rngs):
        self.blocks = nnx.List([Block(rngs) for _ in range(3)])
        self.remat = remat

    def __call__(self, x):
        for block in self.blocks:
            x = remat_block(block, x) if self.remat else block(x)
        return jnp.mean(x**2)


x = jax.random.normal(jax.random.key(1), (64, 16))
plain, remat = Net(False, nnx.Rngs(0)), Net(True, nnx.Rngs(0))  # identical weights
g_plain, g_remat = nnx.grad(lambda m: m(x))(plain), nnx.grad(lambda m: m(x))(remat)
diff = max(jax.tree.leaves(jax.tree.map(lambda a, b: jnp.abs(a - b).max(), g_plain, g_remat)))
print(f"gradients: max diff {diff:.1e} (asserted < 1e-6)")
assert diff < 1e-6


def saved_activations(model):  # residuals computed in the forward pass, not the weights
    graphdef, params = nnx.split(model)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_saved_residuals(lambda p: nnx.merge(graphdef, p)(x), params)
    lines = [line for line in out.getvalue().splitlines() if " output of " in line]
    dims = [re.match(r"f32\[([\d,]*)\]", line)[1] for line in lines]  # e.g. "64,16"
    return len(lines), sum(4 * math.prod(int(d) for d in s.split(",") if d) for s in dims)


(n_plain, b_plain), (n_remat, b_remat) = saved_activations(plain), saved_activations(remat)
print(f"activations saved for backward: plain {n_plain} ({b_plain} B), remat {n_remat} ({b_remat} B)")
assert n_remat < n_plain and 2 * b_remat < b_plain

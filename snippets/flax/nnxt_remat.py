"""nnx.remat on each block: the same gradients, fewer activations kept for the backward pass."""
import contextlib
import io
import math
import re
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
    # e.g. "f32[64,16] output of mul from /path/nnxt_remat.py:37:15 (Net.__call__)"
    found = re.findall(r"^f32\[([\d,]*)\] output of (\S+) from .*\((.*)\)$", out.getvalue(), re.M)
    assert len(found) == out.getvalue().count(" output of ")  # every activation parsed
    return [(tuple(int(d) for d in dims.split(",") if d), op, fn) for dims, op, fn in found]


def size(saved):  # bytes of float32 values
    return sum(4 * math.prod(shape) for shape, _, _ in saved)


saved_plain, saved_remat = saved_activations(plain), saved_activations(remat)
print(f"activations saved for backward: plain {len(saved_plain)} ({size(saved_plain)} B),"
      f" remat {len(saved_remat)} ({size(saved_remat)} B)")
for shape, op, fn in saved_remat:
    print(f"  remat keeps {shape} output of {op} in {fn}")
assert len(saved_remat) < len(saved_plain) and 2 * size(saved_remat) < size(saved_plain)
# Kept: the outputs of blocks 1 and 2 (their last tanh, the inputs of blocks 2 and 3), and the
# factor 2 * x that the derivative of the loss's x**2 needs, x being the output of block 3.
assert [op for _, op, _ in saved_remat] == ["tanh", "tanh", "mul"]
assert all(shape == (64, 16) for shape, _, _ in saved_remat)
assert saved_remat[2][0] == (64, 16) and saved_remat[2][2] == "Net.__call__"  # the loss's factor

"""JAX: with jax.checkpoint each block runs twice in the gradient, and less is kept for it."""
import contextlib
import io
import math
import re

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import print_saved_residuals

kx, *kw = jax.random.split(jax.random.key(0), 13)
params = [(jax.random.normal(kw[2 * i], (256, 256)) / 16, jnp.zeros(256),
           jax.random.normal(kw[2 * i + 1], (256, 256)) / 16, jnp.zeros(256)) for i in range(6)]
x = jax.random.normal(kx, (512, 256))


def block(p, h):
    w1, b1, w2, b2 = p
    return h + jnp.tanh(h @ w1 + b1) @ w2 + b2


def make_loss(remat):
    blk = jax.checkpoint(block) if remat else block
    def loss(params, x):
        h = x
        for p in params:
            h = blk(p, h)
        return jnp.mean(h**2)
    return loss


def saved_bytes(f):  # activations kept for backward; the arguments are kept anyway
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_saved_residuals(f, params, x)
    shapes = re.findall(r"^f32\[([\d,]*)\] (?!from the argument)", out.getvalue(), re.M)
    return sum(4 * math.prod(int(n) for n in s.split(",") if n) for s in shapes)


def block_runs(f):  # one tanh per block run, in the gradient program sent to XLA
    return jax.jit(jax.grad(f)).lower(params, x).as_text().count("stablehlo.tanh")


results = {}
for remat in (False, True):
    f = make_loss(remat)
    results[remat] = (block_runs(f), saved_bytes(f), jax.jit(jax.grad(f))(params, x))
    print(f"{'checkpoint:' if remat else 'plain:     '} {results[remat][0]} block runs,"
          f" {results[remat][1] / 2**20:.2f} MiB of activations saved")
(runs0, bytes0, g0), (runs1, bytes1, g1) = results[False], results[True]
assert all(jnp.allclose(a, b, atol=1e-5) for a, b in zip(jax.tree.leaves(g0), jax.tree.leaves(g1)))
assert (runs0, runs1) == (6, 12)  # each block runs again during backward
act = x.size * x.dtype.itemsize  # one (512, 256) float32 activation
assert bytes0 == (2 * 6 + 6) * act  # per block: tanh and 1 - tanh**2; plus the block outputs
assert bytes1 == 6 * act  # only what passes between blocks (and the one array the loss needs)

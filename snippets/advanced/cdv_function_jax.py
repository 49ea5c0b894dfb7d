"""jax.custom_vjp: the same tanh layer, with fwd returning residuals and bwd using them."""
import contextlib
import io
import re

import jax
import jax.numpy as jnp
import numpy as np
from jax.ad_checkpoint import print_saved_residuals


@jax.custom_vjp
def linear_tanh(x, w):
    return jnp.tanh(x @ w)


def linear_tanh_fwd(x, w):
    out = linear_tanh(x, w)
    return out, (x, w, out)  # (primal output, residuals): ctx.save_for_backward


def linear_tanh_bwd(res, g):
    x, w, out = res
    gz = g * (1 - out**2)
    return gz @ w.T, x.T @ gz  # a tuple with one cotangent per input


linear_tanh.defvjp(linear_tanh_fwd, linear_tanh_bwd)

rng = np.random.default_rng(0)  # the same data as the PyTorch tab
x_np = rng.normal(size=(4, 3)).astype(np.float32)
w_np = rng.normal(size=(3, 2)).astype(np.float32)
loss = lambda x, w: jnp.sum(linear_tanh(x, w))
with jax.default_matmul_precision("highest"):  # float32 products (no TF32 or bf16): compared with float64 below
    dx, dw = jax.grad(loss, argnums=(0, 1))(x_np, w_np)
print("dL/dw from jax.grad:\n", dw)

out = io.StringIO()
with contextlib.redirect_stdout(out):
    print_saved_residuals(loss, x_np, w_np)
print("saved for backward:", [re.sub(r" from \S+ \(\w+\)$", "", s) for s in out.getvalue().splitlines()])

gz = 1 - np.tanh(x_np.astype(np.float64) @ w_np) ** 2
gap = max(np.abs(dx - gz @ w_np.T).max(), np.abs(dw - x_np.T @ gz).max())
# float32 rounding on the CPU; off it, tanh has its own approximation (a TPU's differs by ~1e-6 to 1e-5).
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-4
print(f"max |jax.grad - closed form| = {gap:.1e}, tolerance on {jax.default_backend()}: {tol:.0e}")
assert np.allclose(dx, gz @ w_np.T, atol=tol) and np.allclose(dw, x_np.T @ gz, atol=tol)
assert len(out.getvalue().splitlines()) == 3  # x, w and the output: what fwd returned

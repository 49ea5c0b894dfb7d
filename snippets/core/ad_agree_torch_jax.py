"""Same function, same float32 data: loss.backward(), torch.func.grad and jax.grad agree."""
import jax
import jax.numpy as jnp
import numpy as np
import torch

rng = np.random.default_rng(0)
x = rng.normal(size=(256, 64)).astype(np.float32)
w = rng.normal(size=64).astype(np.float32) / 8

xt, wt = torch.from_numpy(x), torch.from_numpy(w)
leaf = wt.clone().requires_grad_(True)
torch.tanh(xt @ leaf).sum().backward()
g_backward = leaf.grad.numpy()
g_func = torch.func.grad(lambda w: torch.tanh(xt @ w).sum())(wt).numpy()

with jax.default_matmul_precision("highest"):  # float32 products (no TF32 or bf16), for this block only
    g_jax = np.asarray(jax.grad(lambda w: jnp.sum(jnp.tanh(x @ w)))(w))

# Relative to the largest gradient entry; float32 epsilon is about 1.2e-7. Off the CPU tanh has
# its own approximation: a TPU v5e measured 2.0e-05, so the tolerance is 1e-4 there.
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-4
scale = float(np.abs(g_jax).max())
d_backward = float(np.abs(g_backward - g_jax).max()) / scale
d_func = float(np.abs(g_func - g_jax).max()) / scale
print(f"gradient: {g_jax.shape[0]} float32 entries, largest magnitude {scale:.1f}")
print(f"max |loss.backward() - jax.grad| / largest = {d_backward:.1e}")
print(f"max |torch.func.grad - jax.grad| / largest = {d_func:.1e}")
print(f"tolerance (relative) on {jax.default_backend()}: {tol:.0e}")
assert max(d_backward, d_func) < tol

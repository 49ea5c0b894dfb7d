"""torch.optim.AdamW and optax.adamw train the same linear regression to the same weights."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
import torch

# Exact float32 products on every backend, for the comparison: by default a TPU multiplies float32
# in one bfloat16 pass and an A100 or H100 in TF32, which would outweigh the differences compared here.
jax.config.update("jax_default_matmul_precision", "highest")

rng = np.random.default_rng(0)  # numpy gives both frameworks the same float32 data
x = rng.normal(size=(32, 3)).astype(np.float32)
y = x @ np.array([1.0, -2.0, 0.5], np.float32) + 0.1 * rng.normal(size=32).astype(np.float32)
w0 = np.zeros(3, np.float32)
lr, wd, steps = 0.01, 0.01, 5  # pass weight_decay explicitly: the two defaults differ

# PyTorch: the optimizer holds the weights and updates them in place.
w = torch.nn.Parameter(torch.from_numpy(w0.copy()))
opt = torch.optim.AdamW([w], lr=lr, weight_decay=wd)
for _ in range(steps):
    opt.zero_grad()
    loss = ((torch.from_numpy(x) @ w - torch.from_numpy(y)) ** 2).mean()
    loss.backward()
    opt.step()


# optax: you hold params and opt_state; update returns new ones.
def loss_fn(params):
    return jnp.mean((x @ params - y) ** 2)


tx = optax.adamw(learning_rate=lr, weight_decay=wd)
params = jnp.asarray(w0)
opt_state = tx.init(params)
for _ in range(steps):
    grads = jax.grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)  # adamw needs params for the decay
    params = optax.apply_updates(params, updates)

w_torch, w_optax = w.detach().numpy(), np.asarray(params)
print("torch AdamW :", np.array2string(w_torch, precision=6))
print("optax.adamw :", np.array2string(w_optax, precision=6))
# Off the CPU, optax's bias correction 1 - b2**t uses the device's float32 power function (about 1e-6
# relative on a TPU v5e), and 1 - 0.999**t ~ 1e-3 magnifies that: 6.8e-6 on a TPU v5e.
rtol, atol = (1e-5, 1e-6) if jax.default_backend() == "cpu" else (1e-4, 2e-5)
gap = np.abs(w_torch - w_optax).max()
print(f"max |torch - optax| = {gap:.1e} (rtol={rtol:.0e}, atol={atol:.0e} on {jax.default_backend()})")
assert np.allclose(w_optax, w_torch, rtol=rtol, atol=atol)
assert np.abs(w_optax - w0).min() > 0.01  # every weight moved

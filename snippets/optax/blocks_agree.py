"""torch.optim.SGD and optax.sgd from the same start reach the same loss, step by step."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
import torch

# Exact float32 products on every backend, for the comparison: by default a TPU multiplies float32
# in one bfloat16 pass and an A100 or H100 in TF32, which would outweigh the differences compared here.
jax.config.update("jax_default_matmul_precision", "highest")

rng = np.random.default_rng(0)
x = rng.normal(size=(64, 3)).astype(np.float32)
y = (x @ np.array([1.0, -2.0, 0.5], np.float32) + 0.3
     + 0.1 * rng.normal(size=64).astype(np.float32))
steps, lr, tol = 50, 0.1, 1e-6

# PyTorch: the optimizer owns w and b.
w, b = torch.zeros(3, requires_grad=True), torch.zeros((), requires_grad=True)
opt = torch.optim.SGD([w, b], lr=lr)
xt, yt = torch.from_numpy(x), torch.from_numpy(y)
torch_losses = []
for _ in range(steps):
    opt.zero_grad()
    loss = torch.mean((xt @ w + b - yt) ** 2)
    loss.backward()
    opt.step()
    torch_losses.append(loss.item())  # loss before this step's update

# JAX: params and opt_state are values that the loop passes along.
def loss_fn(p):
    return jnp.mean((x @ p["w"] + p["b"] - y) ** 2)


params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
tx = optax.sgd(lr)
opt_state = tx.init(params)
jax_losses = []
for _ in range(steps):
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    jax_losses.append(float(loss))

diff = np.abs(np.array(torch_losses) - np.array(jax_losses))
print(f"loss at step 1: torch {torch_losses[0]:.6f}, jax {jax_losses[0]:.6f}")
print(f"loss at step {steps}: torch {torch_losses[-1]:.6f}, jax {jax_losses[-1]:.6f}")
print(f"largest loss difference over {steps} steps: {diff.max():.2e} (tolerance {tol:.0e})")
print(f"largest weight difference: {np.abs(w.detach().numpy() - params['w']).max():.2e}")
assert diff.max() < tol
assert np.allclose(w.detach().numpy(), params["w"], atol=tol)
assert np.isclose(b.item(), float(params["b"]), atol=tol)

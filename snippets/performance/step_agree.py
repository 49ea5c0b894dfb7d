"""The JAX and PyTorch train steps, from the same weights and data, give the same losses for 30 steps."""
import inspect

import jax
import jax.numpy as jnp
import numpy as np
import optax
import torch

rng = np.random.default_rng(0)  # the same data and weights as in both tabs above
x = rng.normal(size=(512, 32)).astype(np.float32)
y = np.argmax(x @ rng.normal(size=(32, 4)) + rng.normal(size=(512, 4)), axis=1)
w1 = rng.normal(size=(32, 128)).astype(np.float32) / np.sqrt(32)
w2 = rng.normal(size=(128, 4)).astype(np.float32) / np.sqrt(128)


def loss_fn(p, x, y):
    logits = jax.nn.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@jax.jit
def jax_step(p, opt_state):
    loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
    updates, opt_state = tx.update(grads, opt_state, p)
    return optax.apply_updates(p, updates), opt_state, loss


tx = optax.adam(1e-2)
p = {"w1": jnp.asarray(w1), "b1": jnp.zeros(128), "w2": jnp.asarray(w2), "b2": jnp.zeros(4)}
opt_state, jax_losses = tx.init(p), []
with jax.default_matmul_precision("float32"):  # no TF32 on GPUs: round like PyTorch on the CPU
    for _ in range(30):
        p, opt_state, loss = jax_step(p, opt_state)
        jax_losses.append(float(loss))

model = torch.nn.Sequential(torch.nn.Linear(32, 128), torch.nn.ReLU(), torch.nn.Linear(128, 4))
with torch.no_grad():
    for layer, w in ((model[0], w1), (model[2], w2)):
        layer.weight.copy_(torch.from_numpy(w.T))
        layer.bias.zero_()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
xt, yt, torch_losses = torch.from_numpy(x), torch.from_numpy(y), []
for _ in range(30):
    optimizer.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(xt), yt)
    loss.backward()
    optimizer.step()
    torch_losses.append(loss.item())

diff = max(abs(a - b) / b for a, b in zip(jax_losses, torch_losses))
print(f"loss at step 0 / 29, JAX:     {jax_losses[0]:.6f} / {jax_losses[-1]:.6f}")
print(f"loss at step 0 / 29, PyTorch: {torch_losses[0]:.6f} / {torch_losses[-1]:.6f}")
print(f"largest relative difference over 30 steps: {diff:.1e} (asserted < 1e-3)")
assert diff < 1e-3
# The two Adams have the same defaults: optax's b1, b2, eps against torch's betas and eps.
defaults = {k: v.default for k, v in inspect.signature(optax.adam).parameters.items()}
assert (defaults["b1"], defaults["b2"], defaults["eps"]) == (0.9, 0.999, 1e-8)
assert optimizer.defaults["betas"] == (0.9, 0.999) and optimizer.defaults["eps"] == 1e-8

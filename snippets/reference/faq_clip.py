"""Gradient clipping: torch.nn.utils.clip_grad_norm_ and optax.clip_by_global_norm agree."""
import jax.numpy as jnp
import numpy as np
import optax
import torch

rng = np.random.default_rng(0)
grads_np = {"b": rng.normal(size=3).astype(np.float32) * 5,
            "w": rng.normal(size=(3, 2)).astype(np.float32) * 5}

# PyTorch: clip the .grad tensors in place, over all parameters together.
tparams = [torch.nn.Parameter(torch.zeros(g.shape)) for g in grads_np.values()]
for p, g in zip(tparams, grads_np.values()):
    p.grad = torch.tensor(g)
norm_before = torch.nn.utils.clip_grad_norm_(tparams, max_norm=1.0)

# optax: a transformation that returns clipped gradients.
grads = {k: jnp.asarray(v) for k, v in grads_np.items()}
clip = optax.clip_by_global_norm(1.0)
clipped, _ = clip.update(grads, clip.init(grads))
print(f"global norm before: optax {float(optax.tree.norm(grads)):.4f}, torch {float(norm_before):.4f}")
print(f"global norm after:  {float(optax.tree.norm(clipped)):.4f}")
assert np.isclose(float(optax.tree.norm(grads)), float(norm_before), rtol=1e-5)
assert np.isclose(float(optax.tree.norm(clipped)), 1.0, rtol=1e-5)
for p, k in zip(tparams, grads_np):
    assert np.allclose(p.grad.numpy(), clipped[k], rtol=1e-5)  # same clipped gradients

# In a training step, put the clipping first in a chain: Adam then sees clipped gradients.
tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
params = {k: jnp.zeros_like(v) for k, v in grads.items()}
updates, _ = tx.update(grads, tx.init(params), params)
adam = optax.adam(1e-3)
expected, _ = adam.update(clipped, adam.init(params), params)
assert all(np.allclose(updates[k], expected[k]) for k in grads)
print("chain(clip, adam) == adam on clipped gradients")

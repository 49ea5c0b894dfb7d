"""clip_grad_norm_ and optax.clip_by_global_norm clip the same gradients to the same values."""
import jax.numpy as jnp
import numpy as np
import optax
import torch

rng = np.random.default_rng(0)
shapes = {"w": (4, 3), "b": (3,)}
max_norm = 1.0
clip = optax.clip_by_global_norm(max_norm)

for scale in (10.0, 0.1):  # one gradient above the limit, one below it
    grads_np = {k: scale * rng.normal(size=s).astype(np.float32) for k, s in shapes.items()}

    # PyTorch: clips the .grad tensors in place and returns the norm before clipping.
    tparams = [torch.nn.Parameter(torch.zeros(s)) for s in shapes.values()]
    for p, g in zip(tparams, grads_np.values()):
        p.grad = torch.from_numpy(g.copy())
    norm_torch = float(torch.nn.utils.clip_grad_norm_(tparams, max_norm))

    # optax: returns new clipped gradients; the norm is a separate call.
    grads = {k: jnp.asarray(v) for k, v in grads_np.items()}
    clipped, _ = clip.update(grads, clip.init(grads))
    norm_optax = float(optax.tree.norm(grads))

    diff = max(float(np.abs(p.grad.numpy() - clipped[k]).max()) for p, k in zip(tparams, shapes))
    print(f"norm before {norm_optax:7.4f} (torch {norm_torch:7.4f}), "
          f"after {float(optax.tree.norm(clipped)):.4f}, max |torch - optax| = {diff:.1e}")
    assert np.isclose(norm_torch, norm_optax, rtol=1e-6)
    assert np.isclose(float(optax.tree.norm(clipped)), min(norm_optax, max_norm), rtol=1e-6)
    assert diff < 1e-6  # torch divides by norm + 1e-6, optax by the norm: a tiny difference
    if norm_optax < max_norm:  # below the limit both leave the gradients unchanged
        assert all(np.array_equal(clipped[k], grads_np[k]) for k in shapes)

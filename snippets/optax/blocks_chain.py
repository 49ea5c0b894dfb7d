"""optax.chain: clip by global norm, then AdamW; one state per link."""
import jax.numpy as jnp
import numpy as np
import optax

lr, wd, b1, b2, eps = 1e-3, 1e-2, 0.9, 0.999, 1e-8  # adamw's b1, b2, eps defaults
tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(lr, weight_decay=wd))

params = {"w": jnp.array([1.0, -1.0]), "b": jnp.array([0.5])}
grads = {"w": jnp.array([6.0, 0.0]), "b": jnp.array([-8.0])}  # global norm 10
state = tx.init(params)
print("chain state:", len(state), "links:", [type(s).__name__ for s in state])
print("adamw state:", [type(s).__name__ for s in state[1]])
assert isinstance(state, tuple) and len(state) == 2  # clip's state, adamw's state

updates, state = tx.update(grads, state, params)

# Expected values, computed with NumPy: clip to norm 1, then one AdamW step.
g = {k: np.asarray(v) for k, v in grads.items()}
norm = np.sqrt(sum(np.sum(v**2) for v in g.values()))
clipped = {k: v / max(1.0, norm) for k, v in g.items()}
mu = {k: (1 - b1) * v for k, v in clipped.items()}
nu = {k: (1 - b2) * v**2 for k, v in clipped.items()}
expected = {k: -lr * ((mu[k] / (1 - b1)) / (np.sqrt(nu[k] / (1 - b2)) + eps)
                      + wd * np.asarray(params[k])) for k in g}
adam_state = state[1][0]  # ScaleByAdamState inside adamw's own chain
print(f"global norm of grads: {norm:.1f}")
print(f"Adam's mu['b']: {float(adam_state.mu['b'][0]):.4f} "
      f"(clipped: {mu['b'][0]:.4f}, unclipped would be {(1 - b1) * g['b'][0]:.4f})")
print("updates['w']:", updates["w"], "| NumPy:", expected["w"].astype(np.float32), "(rtol 1e-5)")
for k in g:
    assert np.allclose(adam_state.mu[k], mu[k], atol=1e-7)  # Adam saw clipped grads
    assert np.allclose(adam_state.nu[k], nu[k], atol=1e-9)
    assert np.allclose(updates[k], expected[k], rtol=1e-5, atol=1e-9)

# Adam's first step is about -lr * sign(g), so it is the same without clipping ...
no_clip = optax.adamw(lr, weight_decay=wd)
nc_updates, nc_state = no_clip.update(grads, no_clip.init(params), params)
assert all(np.allclose(nc_updates[k], updates[k], rtol=1e-5, atol=1e-9) for k in g)
# ... but a small gradient (norm 0.5, not clipped) after a clipped one differs.
small = {k: v / 20 for k, v in grads.items()}
u2, _ = tx.update(small, state, params)
nc_u2, _ = no_clip.update(small, nc_state, params)
print("step 2 updates['b']: with clipping", u2["b"], "| without", nc_u2["b"])
assert not np.allclose(u2["b"], nc_u2["b"], rtol=0.1)

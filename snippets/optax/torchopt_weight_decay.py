"""Weight decay: torch Adam(weight_decay) is coupled L2, AdamW is decoupled and scaled by lr."""
import jax.numpy as jnp
import numpy as np
import optax
import torch

lr, wd = 0.1, 0.5
w0 = np.array([1.0, -2.0, 3.0], np.float32)
g0 = np.zeros(3, np.float32)  # a zero gradient isolates what the decay does


def torch_step(make):
    p = torch.nn.Parameter(torch.from_numpy(w0.copy()))
    p.grad = torch.from_numpy(g0.copy())
    make([p]).step()
    return p.detach().numpy()


def optax_step(tx):
    params = jnp.asarray(w0)
    updates, _ = tx.update(jnp.asarray(g0), tx.init(params), params)
    return np.asarray(optax.apply_updates(params, updates))


rows = {
    "torch AdamW": torch_step(lambda p: torch.optim.AdamW(p, lr, weight_decay=wd)),
    "torch Adam(decoupled_weight_decay)": torch_step(
        lambda p: torch.optim.Adam(p, lr, weight_decay=wd, decoupled_weight_decay=True)),
    "optax.adamw": optax_step(optax.adamw(lr, weight_decay=wd)),
    "torch Adam(weight_decay)": torch_step(lambda p: torch.optim.Adam(p, lr, weight_decay=wd)),
    "chain(add_decayed_weights, adam)": optax_step(
        optax.chain(optax.add_decayed_weights(wd), optax.adam(lr))),
    "chain(adam, add_decayed_weights)": optax_step(
        optax.chain(optax.adam(lr), optax.add_decayed_weights(wd))),
}
for name, w in rows.items():
    print(f"{name:35s} {np.array2string(w, precision=4)}")

# Decoupled: the weights shrink by exactly lr * wd, in both libraries.
assert np.allclose(rows["torch AdamW"], w0 * (1 - lr * wd), rtol=1e-6)
assert np.allclose(rows["optax.adamw"], w0 * (1 - lr * wd), rtol=1e-6)
assert np.array_equal(rows["torch Adam(decoupled_weight_decay)"], rows["torch AdamW"])
# Coupled: wd * w goes through Adam's normalisation, so each weight moves by about lr.
coupled = rows["torch Adam(weight_decay)"]
assert np.allclose(coupled, rows["chain(add_decayed_weights, adam)"], rtol=1e-5)
assert np.allclose(np.abs(w0 - coupled), lr, rtol=1e-4)
# Decay after adam: added to an already negated update, it pushes weights away from zero.
assert np.all(np.abs(rows["chain(adam, add_decayed_weights)"]) > np.abs(w0))

"""Freeze part of a params pytree with optax.partition: no updates and no Adam state for it."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

k1, k2, k3 = jax.random.split(jax.random.key(0), 3)
params = {"backbone": {"w": jax.random.normal(k1, (4, 8)), "b": jnp.zeros(8)},
          "head": {"w": jax.random.normal(k2, (8, 1)), "b": jnp.zeros(1)}}
x = jax.random.normal(k3, (16, 4))


def loss_fn(params, x):
    h = jnp.tanh(x @ params["backbone"]["w"] + params["backbone"]["b"])
    return jnp.mean((h @ params["head"]["w"] + params["head"]["b"]) ** 2)


# One label per subtree (a prefix of params), one transformation per label.
labels = {"backbone": "frozen", "head": "train"}
tx = optax.partition({"train": optax.adam(1e-2), "frozen": optax.set_to_zero()}, labels)
opt_state = tx.init(params)
grads = jax.grad(loss_fn)(params, x)
updates, opt_state = tx.update(grads, opt_state, params)
new = optax.apply_updates(params, updates)

same = jax.tree.map(lambda a, b: bool(jnp.array_equal(a, b)), params, new)
print("unchanged after one step:", same)
assert same == {"backbone": {"w": True, "b": True}, "head": {"w": False, "b": False}}

# Adam keeps moments only for the head: 2 moments x 2 head arrays, plus its step count.
adam_leaves = jax.tree.leaves(opt_state.inner_states["train"])
print("arrays in the Adam state:", len(adam_leaves), "| with nothing frozen:",
      len(jax.tree.leaves(optax.adam(1e-2).init(params))))
assert len(adam_leaves) == 2 * 2 + 1

# The shortcut takes a boolean mask (True = frozen) and builds the same partition.
mask = {"backbone": True, "head": False}
tx2 = optax.selective_transform(optax.adam(1e-2), freeze_mask=mask)
updates2, _ = tx2.update(grads, tx2.init(params), params)
assert jax.tree.all(jax.tree.map(np.allclose, updates, updates2))

# The older name optax.multi_transform is the same function as optax.partition.
print("optax.multi_transform is optax.partition:", optax.multi_transform is optax.partition)
assert optax.multi_transform is optax.partition

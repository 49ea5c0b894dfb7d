"""The optimizer state is a pytree: read it by name, jit it, save and restore it."""
import io
import jax
import jax.numpy as jnp
import numpy as np
import optax

tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(1e-3, weight_decay=1e-2))
params = {"w": jnp.array([1.0, -1.0]), "b": jnp.array([0.5])}
grads = {"w": jnp.array([6.0, 0.0]), "b": jnp.array([-8.0])}


@jax.jit  # the state goes in and comes out like any other pytree
def step(params, state):
    updates, state = tx.update(grads, state, params)
    return optax.apply_updates(params, updates), state


state = tx.init(params)
for _ in range(3):
    params, state = step(params, state)

for path, leaf in jax.tree.leaves_with_path(state):
    print(f"{jax.tree_util.keystr(path):16} {leaf.dtype} {leaf.shape}")
count, mu = optax.tree.get(state, "count"), optax.tree.get(state, "mu")
print("count:", count, "| mu['b']:", mu["b"])
assert int(count) == 3 and count is state[1][0].count  # same leaf as the walk by hand
assert mu is state[1][0].mu
assert optax.tree.get(state, "step") is None  # a wrong name gives None, not an error
assert optax.tree_utils.tree_get is optax.tree.get  # the older spelling
two_adams = optax.chain(optax.adam(1e-3), optax.adam(1e-3)).init(params)
try:
    optax.tree.get(two_adams, "count")  # two leaves named count
except KeyError as e:
    print("two counts: KeyError -", e.args[0].split(" in ")[0])
    assert e.args[0].startswith("Found multiple values for 'count'")
else:
    raise AssertionError("no KeyError for a name found twice")

# Save the leaves with NumPy, rebuild the state from the tree structure.
buf = io.BytesIO()
np.savez(buf, *jax.tree.leaves(state))
buf.seek(0)
with np.load(buf) as f:
    leaves = [f[f"arr_{i}"] for i in range(len(f.files))]
restored = jax.tree.unflatten(jax.tree.structure(state), leaves)
assert jax.tree.structure(restored) == jax.tree.structure(state)
# Training on from the restored state gives exactly the same result.
p1, _ = step(params, state)
p2, _ = step(params, restored)
assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, p1, p2)))
print("restored state continues training identically")

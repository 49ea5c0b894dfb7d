"""What optax.partition keeps: one inner state per label, and adamw(mask=...) as a one-state shortcut."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

k1, k2, kx = jax.random.split(jax.random.key(0), 3)
params = {"hidden": {"kernel": jax.random.normal(k1, (4, 8)), "bias": jnp.zeros(8)},
          "out": {"kernel": jax.random.normal(k2, (8, 1)), "bias": jnp.zeros(1)}}
x = jax.random.normal(kx, (16, 4))
grad_fn = jax.grad(lambda p: jnp.mean((jnp.tanh(x @ p["hidden"]["kernel"] + p["hidden"]["bias"])
                                       @ p["out"]["kernel"] + p["out"]["bias"]) ** 2))
labels = jax.tree_util.tree_map_with_path(
    lambda path, _: "decay" if path[-1].key == "kernel" else "no_decay", params)

tx = optax.partition({"decay": optax.adamw(0.05, weight_decay=0.1),
                      "no_decay": optax.adamw(0.05, weight_decay=0.0)}, labels)
state = tx.init(params)
print(type(state).__name__, "with inner states for", list(state.inner_states))
adam = state.inner_states["decay"].inner_state[0]  # the ScaleByAdamState of the "decay" group
print("decay group: count", adam.count, "| mu shapes", jax.tree.map(jnp.shape, adam.mu))
assert isinstance(adam.mu["hidden"]["bias"], optax.MaskedNode)  # a placeholder without arrays
assert len(jax.tree.leaves(state)) == 2 * (1 + 2 + 2)  # per group: count, 2 mu, 2 nu

# A label with no transformation is an error as soon as the state is built.
try:
    optax.partition({"decay": optax.adamw(0.05)}, labels).init(params)
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0])
else:
    raise AssertionError("expected a ValueError")

# When only the weight decay differs, adamw's mask= gives the same steps with one Adam state.
masked = optax.adamw(0.05, weight_decay=0.1, mask=jax.tree.map(lambda l: l == "decay", labels))
results = []
for t in (tx, masked):
    p, s = params, t.init(params)
    for _ in range(10):
        u, s = t.update(grad_fn(p), s, p)
        p = optax.apply_updates(p, u)
    results.append(p)
    print(f"{len(jax.tree.leaves(s))} arrays in the state of", "partition" if t is tx else "adamw(mask=...)")
diff = max(jax.tree.leaves(jax.tree.map(lambda a, b: float(jnp.abs(a - b).max()), *results)))
print(f"max |partition - adamw(mask=...)| after 10 steps: {diff:.1e} (tolerance 1e-6)")
assert diff < 1e-6

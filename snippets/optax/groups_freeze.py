"""Freeze the backbone with optax.set_to_zero: unchanged after training, and no Adam state for it."""
import jax
import jax.numpy as jnp
import optax

k1, k2, kx = jax.random.split(jax.random.key(0), 3)
params = {"backbone": {"w": jax.random.normal(k1, (4, 8)), "b": jnp.zeros(8)},
          "head": {"w": jax.random.normal(k2, (8, 1)), "b": jnp.zeros(1)}}
x = jax.random.normal(kx, (16, 4))


def loss_fn(p):
    h = jnp.tanh(x @ p["backbone"]["w"] + p["backbone"]["b"])
    return jnp.mean((h @ p["head"]["w"] + p["head"]["b"] - 1.0) ** 2)


labels = jax.tree_util.tree_map_with_path(  # everything under "backbone" is frozen
    lambda path, _: "frozen" if path[0].key == "backbone" else "train", params)
tx = optax.partition({"train": optax.adam(0.05), "frozen": optax.set_to_zero()}, labels)


@jax.jit
def step(p, state):
    updates, state = tx.update(jax.grad(loss_fn)(p), state, p)
    return optax.apply_updates(p, updates), state


new, state = params, tx.init(params)
for _ in range(10):
    new, state = step(new, state)
same = jax.tree.map(lambda a, b: bool(jnp.array_equal(a, b)), params, new)
print("unchanged after 10 steps:", same)
print(f"loss: {loss_fn(params):.4f} -> {loss_fn(new):.4f}")
print("frozen group state:", state.inner_states["frozen"])
adam = state.inner_states["train"].inner_state[0]
print("train group: count", adam.count, "| mu shapes", jax.tree.map(jnp.shape, adam.mu))
assert same == {"backbone": {"w": True, "b": True}, "head": {"w": False, "b": False}}
assert jax.tree.leaves(state.inner_states["frozen"]) == []  # no arrays for the frozen group
assert isinstance(adam.mu["backbone"]["w"], optax.MaskedNode) and int(adam.count) == 10

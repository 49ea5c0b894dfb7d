"""Freeze the backbone with optax.selective_transform: unchanged after training, and no Adam state for it."""
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


def train(tx, steps=10):  # jitted steps from the same start
    @jax.jit
    def step(p, s):
        updates, s = tx.update(jax.grad(loss_fn)(p), s, p)
        return optax.apply_updates(p, updates), s

    p, s = params, tx.init(params)
    for _ in range(steps):
        p, s = step(p, s)
    return p, s


mask = {"backbone": True, "head": False}  # True = frozen; a prefix of params, like a label tree
new, state = train(optax.selective_transform(optax.adam(0.05), freeze_mask=mask))
same = jax.tree.map(lambda a, b: bool(jnp.array_equal(a, b)), params, new)
print("unchanged after 10 steps:", same)
print(f"loss: {loss_fn(params):.4f} -> {loss_fn(new):.4f}")
print("frozen group state:", state.inner_states["freeze"])
adam = state.inner_states["train"].inner_state[0]
print("train group: count", adam.count, "| mu shapes", jax.tree.map(jnp.shape, adam.mu))
assert same == {"backbone": {"w": True, "b": True}, "head": {"w": False, "b": False}}
assert jax.tree.leaves(state.inner_states["freeze"]) == []  # no arrays for the frozen group
assert isinstance(adam.mu["backbone"], optax.MaskedNode) and int(adam.count) == 10

# What it builds: a partition with the labels "train" and "freeze". Written out, it does the same.
explicit = optax.partition({"train": optax.adam(0.05), "freeze": optax.set_to_zero()},
                           {"backbone": "freeze", "head": "train"})
new2, state2 = train(explicit)
assert jax.tree.structure(state2) == jax.tree.structure(state)
assert jax.tree.all(jax.tree.map(lambda a, b: bool(jnp.array_equal(a, b)), new, new2))

# optax.freeze only zeroes the updates: chained after Adam, Adam keeps moments for the backbone too.
_, state3 = train(optax.chain(optax.adam(0.05), optax.freeze(mask)))
n_sel, n_chain = len(jax.tree.leaves(state)), len(jax.tree.leaves(state3))
print(f"arrays in the state: selective_transform {n_sel}, chain(adam, freeze) {n_chain}")
assert (n_sel, n_chain) == (1 + 2 * 2, 1 + 2 * 4)

"""A smaller learning rate for the backbone: one SGD transformation per subtree, labels as a prefix."""
import jax
import jax.numpy as jnp
import optax

k1, k2, kx = jax.random.split(jax.random.key(0), 3)
params = {"backbone": {"w": jax.random.normal(k1, (4, 8)), "b": jnp.zeros(8)},
          "head": {"w": jax.random.normal(k2, (8, 1)), "b": jnp.zeros(1)}}
x = jax.random.normal(kx, (16, 4))


def loss_fn(p):
    h = jnp.tanh(x @ p["backbone"]["w"] + p["backbone"]["b"])
    return jnp.mean((h @ p["head"]["w"] + p["head"]["b"]) ** 2)


# A label tree may stop at a subtree: "backbone" labels both of its leaves.
tx = optax.partition({"backbone": optax.sgd(0.01), "head": optax.sgd(0.1)},
                     {"backbone": "backbone", "head": "head"})
grads = jax.grad(loss_fn)(params)
updates, _ = tx.update(grads, tx.init(params), params)

size = {g: optax.tree.norm(updates[g]) / optax.tree.norm(grads[g]) for g in params}
for group, ratio in size.items():
    print(f"{group:8s} |update| / |grad| = {ratio:.4f}")
print(f"backbone / head = {size['backbone'] / size['head']:.4f}")
assert jnp.allclose(size["backbone"] / size["head"], 0.1, rtol=1e-5)
# Per leaf, too: each update is minus its group's learning rate times the gradient.
for group, lr in [("backbone", 0.01), ("head", 0.1)]:
    assert all(jax.tree.leaves(jax.tree.map(lambda u, g: jnp.allclose(u, -lr * g, rtol=1e-6),
                                            updates[group], grads[group])))

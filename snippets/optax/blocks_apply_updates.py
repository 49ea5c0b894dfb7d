"""optax.apply_updates adds the updates; the minus sign is already inside them."""
import jax
import jax.numpy as jnp
import optax

params = {"w": jnp.array([1.0, 2.0]), "b": jnp.array(0.5)}
grads = {"w": jnp.array([0.4, -0.2]), "b": jnp.array(1.0)}
lr = 0.1

tx = optax.sgd(lr)
updates, _ = tx.update(grads, tx.init(params), params)
print("grads['w']:  ", grads["w"])
print("updates['w']:", updates["w"])
# The update already points downhill: -lr * grads.
assert all(jax.tree.leaves(jax.tree.map(lambda u, g: jnp.allclose(u, -lr * g), updates, grads)))

new = optax.apply_updates(params, updates)
by_hand = jax.tree.map(lambda p, u: p + u, params, updates)
print("apply_updates:", new["w"], "| p + u:", by_hand["w"])
assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, new, by_hand)))

# One difference: apply_updates keeps each parameter's dtype, p + u promotes.
p16 = {"w": jnp.array([1.0, 2.0], dtype=jnp.bfloat16)}
u32 = {"w": jnp.array([0.001, 0.001], dtype=jnp.float32)}
kept = optax.apply_updates(p16, u32)["w"]
promoted = jax.tree.map(lambda p, u: p + u, p16, u32)["w"]
print("bfloat16 params + float32 updates:", kept.dtype, "vs", promoted.dtype)
assert kept.dtype == jnp.bfloat16 and promoted.dtype == jnp.float32

"""jax.debug.callback hands values to Python under jit, vmap and grad, and returns nothing."""
import jax
import jax.numpy as jnp

seen = []


def loss(w, x):
    h = jnp.tanh(w * x)
    jax.debug.callback(lambda v: seen.append(v.tolist()), h)  # observe, never change, h
    return jnp.sum(h**2)


w, x = jnp.float32(0.5), jnp.array([1.0, 2.0, 3.0])

g = jax.jit(jax.grad(loss))(w, x)  # a gradient through it: pure_callback would fail here
jax.effects_barrier()
print("under jit(grad):", seen)
assert len(seen) == 1 and jnp.allclose(jnp.array(seen[0]), jnp.tanh(w * x))
assert jnp.allclose(g, jnp.sum(2 * jnp.tanh(w * x) * (1 - jnp.tanh(w * x) ** 2) * x))

seen.clear()
jax.vmap(loss, in_axes=(0, None))(jnp.array([0.5, 1.0]), x)
jax.effects_barrier()
print("under vmap:", seen)  # one call per example, each with one example's values
assert len(seen) == 2 and jnp.allclose(jnp.array(seen[1]), jnp.tanh(1.0 * x))

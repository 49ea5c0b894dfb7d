"""A stateful NumPy generator inside jit is sampled once, at trace time."""
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)  # hidden state, like torch's global generator


def add_noise(x):
    return x + rng.normal()  # a Python float, drawn when this line runs


x = jnp.zeros(2)

# Eager: the line runs on every call, the generator advances, results differ.
eager_a, eager_b = add_noise(x), add_noise(x)
print("eager:", eager_a, eager_b)
assert not jnp.array_equal(eager_a, eager_b)

# jit: the line runs once while tracing; the draw becomes a constant.
add_noise_jit = jax.jit(add_noise)
jit_a, jit_b = add_noise_jit(x), add_noise_jit(x)
print("jit:  ", jit_a, jit_b)
assert jnp.array_equal(jit_a, jit_b)

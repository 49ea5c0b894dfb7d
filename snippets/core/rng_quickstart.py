"""Draw several kinds of random numbers from one seed: split once, one key per draw."""
import inspect

import jax
import jax.numpy as jnp

key = jax.random.key(0)  # the seed of the whole program
w_key, noise_key, index_key = jax.random.split(key, 3)  # one new key per use

w = jax.random.normal(w_key, (3, 2))  # standard normal, float32 by default
noise = jax.random.uniform(noise_key, (4,), minval=-1.0, maxval=1.0)
index = jax.random.randint(index_key, (5,), 0, 10)  # integers in [0, 10)

for name, x in [("w", w), ("noise", noise), ("index", index)]:
    print(f"{name:6s} shape={x.shape} dtype={x.dtype}\n{x}")

assert w.shape == (3, 2) and w.dtype == jnp.float32
assert noise.shape == (4,) and bool(jnp.all((noise >= -1.0) & (noise < 1.0)))
assert index.dtype == jnp.int32 and bool(jnp.all((index >= 0) & (index < 10)))
# A sampler is a function of its key: the same key gives the same array again.
assert jnp.array_equal(w, jax.random.normal(w_key, (3, 2)))


# Argument order: the key first; normal, uniform and randint take the shape next,
# while bernoulli and categorical take p and logits before the shape.
def leading(sampler, n):
    return list(inspect.signature(sampler).parameters)[:n]


assert all(leading(sampler, 2) == ["key", "shape"]
           for sampler in (jax.random.normal, jax.random.uniform, jax.random.randint))
assert leading(jax.random.bernoulli, 3) == ["key", "p", "shape"]
assert leading(jax.random.categorical, 2) == ["key", "logits"]

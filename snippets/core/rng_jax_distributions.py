"""JAX: the same distributions from split keys, with their shapes and dtypes."""
import jax
import jax.numpy as jnp

keys = jax.random.split(jax.random.key(0), 7)  # one key per sampler
logits = jnp.log(jnp.array([0.1, 0.2, 0.7]))  # categorical takes logits, not probabilities

samples = {
    "normal": jax.random.normal(keys[0], (2, 3)),
    "uniform": jax.random.uniform(keys[1], (4,)),
    "randint": jax.random.randint(keys[2], (5,), 0, 10),
    "bernoulli": jax.random.bernoulli(keys[3], 0.3, (6,)),
    "categorical": jax.random.categorical(keys[4], logits, shape=(8,)),
    "permutation": jax.random.permutation(keys[5], 5),
    "choice": jax.random.choice(keys[6], 10, (3,), replace=False),
}
for name, x in samples.items():
    print(f"{name:11s} {str(x.shape):7s} {x.dtype}")

assert samples["normal"].dtype == jnp.float32
assert samples["randint"].dtype == jnp.int32  # 32-bit: 64-bit types are off by default
assert samples["bernoulli"].dtype == jnp.bool_  # True / False, not 0.0 / 1.0
assert samples["categorical"].dtype == jnp.int32 and int(samples["categorical"].max()) <= 2
assert sorted(samples["permutation"].tolist()) == list(range(5))
assert len(set(samples["choice"].tolist())) == 3  # replace=False: no repeats
# Batched logits: one draw per row, so the shape is the logits shape without the last axis.
assert jax.random.categorical(keys[4], jnp.zeros((4, 3))).shape == (4,)
# Lower precision on request.
assert jax.random.normal(keys[0], (2,), dtype=jnp.bfloat16).dtype == jnp.bfloat16

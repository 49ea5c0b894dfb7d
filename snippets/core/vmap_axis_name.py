"""axis_name lets a per-example function reduce over the whole batch with a collective."""
import jax
import jax.numpy as jnp


def share(x):  # one example's score, as a fraction of the batch total
    return x / jax.lax.psum(x, axis_name="batch")


def standardize(x):  # one example, centred and scaled with the batch statistics
    mean = jax.lax.pmean(x, axis_name="batch")
    var = jax.lax.pmean((x - mean) ** 2, axis_name="batch")
    return (x - mean) / jnp.sqrt(var + 1e-5)


scores = jnp.array([1.0, 2.0, 3.0, 4.0])
shares = jax.vmap(share, axis_name="batch")(scores)
print("shares:", shares)
assert jnp.allclose(shares, scores / scores.sum())
assert jnp.allclose(shares.sum(), 1.0)

feats = jnp.arange(12.0).reshape(4, 3) ** 2  # 4 examples of 3 features
z = jax.vmap(standardize, axis_name="batch")(feats)
print("per-feature mean and std after:", jnp.round(z.mean(0), 4), jnp.round(z.std(0), 4))
expected = (feats - feats.mean(0)) / jnp.sqrt(feats.var(0) + 1e-5)
assert jnp.allclose(z, expected, atol=1e-5)

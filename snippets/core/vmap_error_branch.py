"""A Python `if` on a batched value fails under vmap; jnp.where picks per example instead."""
import jax
import jax.numpy as jnp


def relu_if(x):  # one example, a scalar
    if x > 0:  # needs one True/False, but under vmap x stands for the whole batch
        return x
    return 0.0


xs = jnp.array([-2.0, -0.5, 0.5, 2.0])
try:
    jax.vmap(relu_if)(xs)
    raise AssertionError("expected a TracerBoolConversionError")
except jax.errors.TracerBoolConversionError as err:
    print(type(err).__name__, "-", str(err).splitlines()[0])
    assert "boolean conversion of traced array" in str(err)


def relu_where(x):  # both branches are computed; where selects one per example
    return jnp.where(x > 0, x, 0.0)


ys = jax.vmap(relu_where)(xs)
print(ys)
assert jnp.array_equal(ys, jnp.array([0.0, 0.0, 0.5, 2.0]))
assert jnp.array_equal(ys, jnp.array([relu_if(float(x)) for x in xs]))  # concrete values: fine

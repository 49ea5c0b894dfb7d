"""abstracted_axes is no longer a jax.jit parameter: passing it is a TypeError."""
import jax
import jax.numpy as jnp


def total(x):
    return jnp.sum(x)


error = None
try:
    jax.jit(total, abstracted_axes=({0: "n"},))  # copied from an older tutorial
except TypeError as err:
    error = err
print(type(error).__name__ + ":", error)
assert "unexpected keyword argument 'abstracted_axes'" in str(error)

# What works instead: one compilation per shape. Bucketing the sizes bounds their number.
traces = []


@jax.jit
def padded_total(x):
    traces.append(x.shape)
    return jnp.sum(x)


for n in (3, 5, 7, 8):
    padded = jnp.pad(jnp.ones(n), (0, 8 - n))  # zeros do not change the sum
    assert padded_total(padded) == n
print("lengths 3, 5, 7, 8 padded to 8 -> traces:", traces)
assert traces == [(8,)]

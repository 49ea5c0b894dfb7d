"""Under jax.jit a shape cannot come from a traced argument; three ways around it."""
import jax
import jax.numpy as jnp


def ones_of_length(n):
    return jnp.ones(n)  # the length of the result depends on the *value* of n


try:
    jax.jit(ones_of_length)(3)
    message = "no error"
except TypeError as error:
    message = str(error).splitlines()[0]
print("jax.jit(ones_of_length)(3) -> TypeError:", message)
assert message.startswith("Shapes must be 1D sequences of concrete values of integer type")

# Fix 1: a static argument is a Python value while tracing; every new value compiles again.
ones_static = jax.jit(ones_of_length, static_argnums=0)
print("static_argnums=0:", ones_static(3), ones_static(5))
assert ones_static(3).shape == (3,) and ones_static(5).shape == (5,)


# Fix 2: shapes are static even when the array is traced, so a size taken from x.shape works.
@jax.jit
def ones_per_row(x):
    return jnp.ones(x.shape[0])


print("x.shape[0]:", ones_per_row(jnp.zeros((4, 2))))
assert ones_per_row(jnp.zeros((4, 2))).shape == (4,)

# Fix 3: a size that depends on data stays traced: keep the full size and mask what is not wanted.
traces = []


@jax.jit
def sum_first(x, n):
    traces.append(n)  # runs only while tracing
    keep = jnp.arange(x.shape[0]) < n  # n stays a traced value: no new shape, no recompile
    return jnp.where(keep, x, 0.0).sum()


x = jnp.arange(1.0, 7.0)  # [1, 2, 3, 4, 5, 6]
totals = [float(sum_first(x, n)) for n in (3, 5)]
print("jnp.where mask:", totals, "| traced", len(traces), "time(s) for both values of n")
assert totals == [6.0, 15.0] and len(traces) == 1

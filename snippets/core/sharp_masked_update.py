"""PyTorch's x[mask] = 0 becomes jnp.where; boolean-mask indexing fails under jit."""
import jax
import jax.numpy as jnp

x = jnp.array([3.0, -1.0, 4.0, -1.5, 5.0])
mask = x < 0


@jax.jit
def zero_negatives(x):
    return jnp.where(x < 0, 0.0, x)  # same shape in, same shape out


print("where:", zero_negatives(x))
assert zero_negatives(x).tolist() == [3.0, 0.0, 4.0, 0.0, 5.0]

# Outside jit, x[mask] works: JAX sees the mask values and the result shape.
print("eager x[mask]:", x[mask])
assert x[mask].shape == (2,)


@jax.jit
def negatives(x):
    return x[x < 0]  # result shape depends on the values: unknown while tracing


errors = []
for fn in (negatives, jax.jit(lambda x: x.at[x < 0].set(0.0))):  # .at[mask] fails the same way
    try:
        fn(x)
    except jax.errors.NonConcreteBooleanIndexError as err:
        errors.append(err)
        print(type(err).__name__ + ":", str(err).splitlines()[0])
assert len(errors) == 2
assert all("Array boolean indices must be concrete" in str(err) for err in errors)

# Reductions over a mask do not need the smaller array at all.
total = jax.jit(lambda x: jnp.sum(x, where=x < 0))(x)
print("sum of negatives:", total)
assert float(total) == -2.5

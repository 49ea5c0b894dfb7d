"""Under jit, a global read is frozen into the compiled program as a constant."""
import jax
import jax.numpy as jnp

scale = 2.0  # a global the function reads but does not receive


@jax.jit
def apply(x):
    return scale * x


x = jnp.ones(3)
print("scale=2, first call: ", apply(x))
scale = 10.0
print("scale=10, same shape:", apply(x))  # cached trace: still uses 2.0
# The compiled program kept the value it saw at trace time.
assert jnp.array_equal(apply(x), 2.0 * x)

# A new shape forces a retrace, which reads the current global.
y = jnp.ones(4)
print("scale=10, new shape: ", apply(y))
assert jnp.array_equal(apply(y), 10.0 * y)


# The fix: pass what the function depends on as an argument.
@jax.jit
def apply_pure(scale, x):
    return scale * x


assert jnp.array_equal(apply_pure(2.0, x), 2.0 * x)
assert jnp.array_equal(apply_pure(10.0, x), 10.0 * x)
print("explicit argument:   ", apply_pure(10.0, x))

"""jax.lax.scan carries a value from step to step and stacks what each step outputs."""
import jax
import jax.numpy as jnp

xs = jnp.arange(12.0).reshape(4, 3)  # 4 steps along axis 0, each step gets a vector of 3


def step(carry, x):
    carry = carry + x  # the new running total
    return carry, carry  # (carry for the next step, output of this step)


final, ys = jax.lax.scan(step, jnp.zeros(3), xs)
print("carry:", final.shape, final)
print("stacked outputs:", ys.shape)
print(ys)

assert final.shape == (3,)  # the carry keeps the shape of `init`
assert ys.shape == (4, 3)  # one output per step, stacked on a new leading axis
assert jnp.allclose(ys, jnp.cumsum(xs, axis=0))
assert jnp.allclose(final, xs.sum(axis=0))

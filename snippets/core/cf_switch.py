"""jax.lax.switch runs one of several branches, chosen by a traced integer index."""
import jax
import jax.numpy as jnp

branches = [jnp.tanh, jax.nn.relu, jnp.sin]  # same input and output types in every branch


@jax.jit
def activation(index, x):
    return jax.lax.switch(index, branches, x)


x = jnp.array([-1.0, 0.5])
for i, branch in enumerate(branches):
    print(i, branch.__name__, activation(i, x))
    assert jnp.allclose(activation(i, x), branch(x))

# An index out of range is clamped, not an error: -3 runs branch 0 and 7 runs the last.
assert jnp.allclose(activation(-3, x), branches[0](x))
assert jnp.allclose(activation(7, x), branches[-1](x))

# Reverse mode goes through the chosen branch: d/dx sin(x) = cos(x).
grad = jax.grad(lambda x: activation(2, x).sum())(x)
print("grad of branch 2:", grad)
assert jnp.allclose(grad, jnp.cos(x))

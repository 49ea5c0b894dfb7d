"""jax.grad turns a function into its derivative: grad(tanh) matches 1 - tanh(x)**2."""
import jax
import jax.numpy as jnp

dtanh = jax.grad(jnp.tanh)  # a new Python function, not a number
print("jax.grad(jnp.tanh)(0.5) =", dtanh(0.5))

xs = jnp.linspace(-3.0, 3.0, 7)
auto = jnp.stack([dtanh(x) for x in xs])  # grad wants a scalar output: one point per call
exact = 1 - jnp.tanh(xs) ** 2  # the derivative worked out by hand
for x, a, e in zip(xs, auto, exact):
    print(f"x = {float(x):+.1f}   grad: {float(a):.6f}   1 - tanh(x)**2: {float(e):.6f}")
print("largest difference:", float(jnp.max(jnp.abs(auto - exact))))
assert jnp.allclose(auto, exact, atol=1e-6)

# The result is an ordinary function, so it can be differentiated again.
d2tanh = jax.grad(dtanh)
t = jnp.tanh(0.5)
print("second derivative at 0.5:", d2tanh(0.5))
assert jnp.allclose(d2tanh(0.5), -2 * t * (1 - t**2), atol=1e-6)

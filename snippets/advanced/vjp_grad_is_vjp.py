"""jax.grad is jax.vjp with a cotangent of 1.0: the same numbers, bit for bit."""
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks
rng = np.random.default_rng(0)
x = rng.normal(size=(8, 3)).astype(np.float32)
w = rng.normal(size=3).astype(np.float32)


def loss(w):
    return jnp.sum(jnp.tanh(x @ w))


value, loss_vjp = jax.vjp(loss, w)  # runs the forward pass once, keeps what backward needs
(g_vjp,) = loss_vjp(jnp.ones_like(value))  # a tuple: one cotangent per primal argument
g_grad = jax.grad(loss)(w)

print("loss value:", value, "shape", value.shape)
print("vjp with cotangent 1.0:", g_vjp)
print("jax.grad:              ", g_grad)
assert value.shape == () and g_vjp.shape == w.shape
assert np.array_equal(g_vjp, g_grad)  # identical, not just close

# The pullback is linear in the cotangent: scaling it by 3 scales the gradient by 3, to float32
# rounding (a product rounded to bfloat16, a TPU's default, would not commute with the scaling).
(g3,) = loss_vjp(jnp.float32(3.0))
assert jnp.allclose(g3, 3 * g_grad, rtol=1e-6)

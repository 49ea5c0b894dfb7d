"""jax.lax.stop_gradient treats a value as a constant: a TD target that the update must not chase."""
import jax
import jax.numpy as jnp

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks
s, s_next = jnp.array([1.0, 0.5, -0.2]), jnp.array([0.3, -1.0, 0.8])  # state, next state
reward, gamma = 1.0, 0.9
w = jnp.array([0.2, -0.1, 0.4])


def value(w, s):
    return jnp.tanh(w @ s)


def td_loss(w, stop):
    target = reward + gamma * value(w, s_next)  # bootstrapped from the same weights
    if stop:
        target = jax.lax.stop_gradient(target)  # like target.detach() in PyTorch
    return 0.5 * (target - value(w, s)) ** 2


g_stop, g_full = jax.grad(td_loss)(w, True), jax.grad(td_loss)(w, False)
print("loss with / without stop_gradient:", td_loss(w, True), td_loss(w, False))
print("grad with stop_gradient:   ", g_stop)
print("grad without stop_gradient:", g_full)

v = value(w, s)  # by hand: only the prediction v(s) is differentiated
semi = -(reward + gamma * value(w, s_next) - v) * (1 - v**2) * s
assert td_loss(w, True) == td_loss(w, False)  # the forward value is unchanged
assert jnp.allclose(g_stop, semi, atol=1e-6)
assert not jnp.allclose(g_stop, g_full, atol=1e-3)  # without it, the target moves too

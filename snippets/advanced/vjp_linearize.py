"""jax.linearize returns f(x) and the linear map u -> J u, to apply to many tangents."""
import jax
import jax.numpy as jnp


def f(x):
    return jnp.sin(x) * jnp.exp(x[::-1])  # 3 inputs -> 3 outputs


x = jnp.array([0.1, 0.2, 0.3])
y, f_jvp = jax.linearize(f, x)  # evaluates f and saves what the linear map needs
u1, u2 = jnp.array([1.0, 0.0, 0.0]), jnp.array([0.5, -1.0, 2.0])

print("f(x):     ", y)
print("J u1:     ", f_jvp(u1))
print("J u2:     ", f_jvp(u2))
for u in (u1, u2):  # the same numbers as jax.jvp, which runs f again each time
    assert jnp.allclose(f_jvp(u), jax.jvp(f, (x,), (u,))[1], rtol=1e-6)

# Many tangents at once: vmap the linear map; with the identity as tangents it builds J.
J = jax.vmap(f_jvp, out_axes=1)(jnp.eye(3))
print("J from the linear map:\n", J)
assert jnp.allclose(J, jax.jacfwd(f)(x), rtol=1e-6)

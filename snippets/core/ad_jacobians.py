"""jax.jacfwd and jax.jacrev build the same Jacobian; jax.hessian stacks them for 2nd derivatives."""
import jax
import jax.numpy as jnp

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks
A = jnp.array([[1.0, -2.0, 0.5], [0.3, 0.8, -1.0]])  # 3 inputs, 2 outputs
x = jnp.array([0.1, -0.4, 0.7])


def f(x):  # R^3 -> R^2
    return jnp.tanh(A @ x)


J_fwd, J_rev = jax.jacfwd(f)(x), jax.jacrev(f)(x)
print("f(x):", f(x).shape, " jacfwd:", J_fwd.shape, " jacrev:", J_rev.shape)
exact = (1 - jnp.tanh(A @ x) ** 2)[:, None] * A  # row i: f_i'(x) = (1 - tanh^2) * A[i]
assert J_fwd.shape == J_rev.shape == (2, 3)  # (outputs, inputs)
assert jnp.allclose(J_fwd, J_rev, atol=1e-6) and jnp.allclose(J_fwd, exact, atol=1e-6)


def g(x):  # a scalar function: its Hessian is a (3, 3) matrix
    return jnp.sum(f(x))


H = jax.hessian(g)(x)
print("hessian of g:", H.shape, " hessian of f:", jax.hessian(f)(x).shape)
assert H.shape == (3, 3) and jax.hessian(f)(x).shape == (2, 3, 3)
assert jnp.allclose(H, H.T, atol=1e-6)  # second derivatives commute
assert jnp.allclose(H, jax.jacfwd(jax.jacrev(g))(x), atol=1e-6)  # what hessian computes
assert jnp.allclose(H, jax.jacrev(jax.jacrev(g))(x), atol=1e-6)  # any order gives the same

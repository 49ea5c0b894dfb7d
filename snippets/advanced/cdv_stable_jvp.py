"""jax.custom_jvp fixes the NaN gradient of a Euclidean norm at zero."""
import jax
import jax.numpy as jnp
import numpy as np


def norm_plain(x):
    return jnp.sqrt(jnp.sum(x**2))


@jax.custom_jvp
def norm(x):
    return jnp.sqrt(jnp.sum(x**2))


@norm.defjvp
def norm_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    n = norm(x)
    safe_n = jnp.where(n == 0, 1.0, n)  # never divide by zero, not even in the unused branch
    # linear in the tangent t; "highest": a GPU's or TPU's default would round this product
    return n, jnp.where(n == 0, 0.0, jnp.dot(x, t, precision="highest") / safe_n)


@jax.custom_jvp
def norm_one_where(x):
    return jnp.sqrt(jnp.sum(x**2))


@norm_one_where.defjvp
def norm_one_where_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    n = norm_one_where(x)
    return n, jnp.where(n == 0, 0.0, jnp.dot(x, t) / n)  # 0/0 in the discarded branch


zero, x = jnp.zeros(3), jnp.array([3.0, 0.0, 4.0])
print("plain grad at 0:  ", jax.grad(norm_plain)(zero))  # sqrt'(0) = inf, times 0
print("custom grad at 0: ", jax.grad(norm)(zero))
print("custom grad at x: ", jax.grad(norm)(x))
assert norm(x) == norm_plain(x) == 5.0  # the forward pass is unchanged
assert jnp.all(jnp.isnan(jax.grad(norm_plain)(zero)))
assert jnp.array_equal(jax.grad(norm)(zero), zero)
assert np.allclose(jax.grad(norm)(x), np.array([3.0, 0.0, 4.0]) / 5.0)  # x / |x|
print("one-where rule at 0: jvp", jax.jvp(norm_one_where, (zero,), (x,))[1],
      " grad", jax.grad(norm_one_where)(zero))
assert jax.jvp(norm_one_where, (zero,), (x,))[1] == 0.0  # forward mode selects the 0
assert jnp.all(jnp.isnan(jax.grad(norm_one_where)(zero)))  # reverse mode meets the 0/0
# The same rule serves forward mode, which a custom_vjp could not.
assert np.allclose(jax.jacfwd(norm)(x), jax.grad(norm)(x))

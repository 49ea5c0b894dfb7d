"""A Python `if` on a value works under jax.grad alone, but not under jax.jit(jax.grad(...))."""
import jax
import jax.numpy as jnp


def f(x):
    if x > 0:  # Python branch on the value of x
        return x**2
    return -x


print("grad at 3.0:", jax.grad(f)(3.0), "  grad at -1.0:", jax.grad(f)(-1.0))
assert jax.grad(f)(3.0) == 6.0 and jax.grad(f)(-1.0) == -1.0

caught = None
try:
    jax.jit(jax.grad(f))(3.0)
except jax.errors.TracerBoolConversionError as err:
    caught = err
print(f"under jit: {type(caught).__name__}: {str(caught).splitlines()[0]}")
assert isinstance(caught, jax.errors.TracerBoolConversionError)


def f_where(x):  # both branches computed, one selected: works under jit too
    return jnp.where(x > 0, x**2, -x)


print("jit(grad) with jnp.where at 3.0:", jax.jit(jax.grad(f_where))(3.0))
assert jax.jit(jax.grad(f_where))(3.0) == 6.0 and jax.jit(jax.grad(f_where))(-1.0) == -1.0

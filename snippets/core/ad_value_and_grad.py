"""JAX: jax.value_and_grad returns (value, gradient) from a single run of the function."""
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks
rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
x = rng.normal(size=(16, 3)).astype(np.float32)
y = rng.normal(size=16).astype(np.float32)
w = jnp.ones(3)  # a JAX array, so that x @ w is JAX's product in every call below
runs = []  # one entry each time JAX runs the Python body


def loss(w, x, y):
    runs.append(1)
    return jnp.mean((x @ w - y) ** 2)


value, g = jax.value_and_grad(loss)(w, x, y)  # value first, gradient second
print("value_and_grad: loss", value, "grad", g, "| Python runs:", len(runs))
assert len(runs) == 1
assert value.shape == () and g.shape == w.shape  # the order is (value, gradient)

runs.clear()
value_again, g_again = loss(w, x, y), jax.grad(loss)(w, x, y)  # two separate calls
print("loss, then grad: Python runs:", len(runs))
assert len(runs) == 2
assert jnp.allclose(value, value_again) and jnp.allclose(g, g_again)

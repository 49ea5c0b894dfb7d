"""Full float32 matmuls on every backend: the context manager and the config option."""
import jax
import jax.numpy as jnp
import numpy as np

k1, k2 = jax.random.split(jax.random.key(0))
a = jax.random.normal(k1, (256, 256), jnp.float32)
b = jax.random.normal(k2, (256, 256), jnp.float32)
ref = np.asarray(a, np.float64) @ np.asarray(b, np.float64)  # float64 reference, in NumPy


def rel_err(c):
    """Largest absolute error over the largest entry of the reference."""
    return float(np.max(np.abs(np.asarray(c, np.float64) - ref)) / np.max(np.abs(ref)))


matmul = jax.jit(jnp.matmul)
default = matmul(a, b)
with jax.default_matmul_precision("highest"):  # only the calls inside the block
    highest = matmul(a, b)
print(f"backend {jax.default_backend()}: default {rel_err(default):.1e}, highest {rel_err(highest):.1e}")
assert rel_err(highest) < 1e-5  # float32 rounding on every backend

jax.config.update("jax_default_matmul_precision", "highest")  # the whole program from here on
print("config:", jax.config.jax_default_matmul_precision)
assert jax.config.jax_default_matmul_precision == "highest"
assert rel_err(matmul(a, b)) < 1e-5
if jax.default_backend() == "cpu":  # the CPU computes float32 matmuls in float32 whatever you ask
    assert np.array_equal(default, highest)

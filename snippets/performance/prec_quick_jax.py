"""Full float32 matmuls on every backend: the context manager and the config option; exp, tanh, erf."""
import math

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

# "highest" sets the precision of matrix products only: elementwise functions keep their own accuracy.
x = np.linspace(-4, 4, 100001, dtype=np.float32)
functions = {"exp": (jnp.exp, np.exp), "tanh": (jnp.tanh, np.tanh),
             "erf": (jax.scipy.special.erf, np.vectorize(math.erf))}
worst = {}
for name, (jax_fn, float64_fn) in functions.items():
    ref_f = float64_fn(x.astype(np.float64))
    got = np.asarray(jax.jit(jax_fn)(x), np.float64)
    nonzero = ref_f != 0
    worst[name] = float(np.max(np.abs(got[nonzero] - ref_f[nonzero]) / np.abs(ref_f[nonzero])))
print("under 'highest', largest relative error against float64 on [-4, 4]:",
      ", ".join(f"{name} {err:.1e}" for name, err in worst.items()))
assert worst["exp"] < 1e-4  # a few float32 roundings at most, on every backend
if jax.default_backend() == "cpu":
    assert max(worst.values()) < 1e-6  # XLA:CPU's float32 exp, tanh and erf are accurate to a few units in the last place

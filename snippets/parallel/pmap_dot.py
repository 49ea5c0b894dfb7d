"""jax.pmap runs a function once per device, each on one row of the input; it still runs without a warning."""
import os
import warnings

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # the host CPU, even where a GPU is present
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # 8 emulated devices; must come before `import jax`
import jax
import jax.numpy as jnp

n = jax.device_count()
x = jnp.arange(n * 10.0).reshape(n, 10)  # the leading axis must equal the number of devices
y = jnp.ones((n, 10))


def dot(a, b):
    print("each device sees a row of shape", a.shape)  # printed once, while tracing
    return jnp.dot(a, b)


with warnings.catch_warnings(record=True) as caught:  # record any warning pmap emits
    warnings.simplefilter("always")
    out = jax.pmap(dot)(x, y)  # device i computes dot(x[i], y[i])
print("devices:", n, "| out:", out)
print("warnings from jax.pmap:", [str(w.message) for w in caught])
assert out.shape == (n,)
assert jnp.allclose(out, (x * y).sum(axis=1))  # the same as a row-wise dot product
assert not caught  # in the pinned JAX, calling pmap emits no DeprecationWarning


"""jax.eval_shape gives output shapes and dtypes without computing them: no 40 GB array is ever allocated."""
import resource  # Runs in a fresh process: it prints how far this process's memory high-water mark rose

import jax
import jax.numpy as jnp
import numpy as np


def huge(x):
    n = x.shape[0]
    big = jnp.ones((n, n), dtype=x.dtype)  # 40 GB of float32 for n = 100,000 if it ran
    return big @ x, {"norm": jnp.linalg.norm(big)}


def init_mlp(key, sizes=(784, 512, 10)):  # a plain function that returns a pytree
    keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(k, (m, n)), "b": jnp.zeros(n)}
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


jax.eval_shape(huge, jnp.ones(2))  # warm-up: first-use costs of tracing
peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # the process's high-water mark, KiB on Linux
out = jax.eval_shape(huge, jnp.ones(100_000))
peak_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(out)
assert out[0] == jax.ShapeDtypeStruct((100_000,), jnp.float32)
assert out[1]["norm"].shape == () and not isinstance(out[0], jax.Array)
# A high-water mark rises only past the earlier peak: this shows that no 40 GB array existed,
# not that nothing at all was allocated.
print(f"high-water mark of the process's memory rose by {(peak_after - peak_before) / 1024:.0f} MiB")
assert peak_after - peak_before < 200 * 1024

params = jax.eval_shape(init_mlp, jax.random.key(0))  # arguments can be real or abstract
print(jax.tree.map(lambda s: s.shape, params))
assert params[0]["w"].shape == (784, 512) and params[1]["b"].shape == (10,)

# A callback's result_shape_dtypes can come from eval_shape of a jnp reference.
x = jax.ShapeDtypeStruct((8, 3), jnp.float32)  # no data needed either
print(jax.eval_shape(lambda v: jnp.linalg.norm(v, axis=-1), x))
assert jax.eval_shape(lambda v: jnp.linalg.norm(v, axis=-1), x).shape == (8,)

calls = []  # nor does eval_shape run a callback: it only reads the declaration
cb = lambda v: jax.pure_callback(lambda a: calls.append(1) or np.asarray(a),
                                 jax.ShapeDtypeStruct(v.shape, v.dtype), v)
print(jax.eval_shape(cb, x), "callback calls:", len(calls))
assert calls == []

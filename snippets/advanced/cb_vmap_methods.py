"""Under jax.vmap, vmap_method decides what shapes the pure_callback sees and how often it runs."""
import functools

import jax
import jax.numpy as jnp
import numpy as np

calls = []


def host_add(x, y):
    calls.append((x.shape, y.shape))
    return np.asarray(x) + np.asarray(y)  # NumPy broadcasting handles the size-1 axes


def add(x, y, vmap_method=None):
    out_type = jax.ShapeDtypeStruct(jnp.broadcast_shapes(x.shape, y.shape), x.dtype)
    return jax.pure_callback(host_add, out_type, x, y, vmap_method=vmap_method)


xs = jnp.arange(12.0).reshape(4, 3)  # a batch of 4 rows, mapped
y = jnp.ones(3)  # shared by every row, not mapped
expected = xs + y
for method in ["sequential", "expand_dims", "broadcast_all"]:
    calls.clear()
    f = jax.jit(jax.vmap(functools.partial(add, vmap_method=method), in_axes=(0, None)))
    out = f(xs, y).block_until_ready()  # the callback has run once the result is ready
    print(f"{method:14s} calls={len(calls)} shapes seen (x, y): {calls[0]}")
    assert jnp.array_equal(out, expected)
    assert calls == {"sequential": [((3,), (3,))] * 4,
                     "expand_dims": [((4, 3), (1, 3))],
                     "broadcast_all": [((4, 3), (4, 3))]}[method]

try:  # without vmap_method, JAX refuses to guess
    jax.vmap(add, in_axes=(0, None))(xs, y)
except NotImplementedError as err:
    print("no vmap_method:", type(err).__name__, "-", str(err).split(". ")[0])
    assert "vmap is only supported for the pure_callback primitive when vmap_method" in str(err)
else:
    raise AssertionError("expected NotImplementedError")

# The removed vectorized= argument is not refused: it reaches the callback as a keyword argument.
received = {}
def old_style(x, **kwargs):
    received.update(kwargs)
    return np.asarray(x)

jax.pure_callback(old_style, jax.ShapeDtypeStruct(y.shape, y.dtype), y, vectorized=True).block_until_ready()
print("vectorized=True reaches the callback as:", received)
assert list(received) == ["vectorized"] and isinstance(received["vectorized"], jax.Array)
assert bool(received["vectorized"])

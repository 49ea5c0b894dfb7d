"""ppermute sends each block along (source, destination) pairs: a ring shift by one device."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
n = len(devices)
host = np.arange(2 * n, dtype=np.float32)  # device i holds [2i, 2i + 1]
x = jax.device_put(host, NamedSharding(mesh, P("x")))


def send(perm):
    """Run ppermute with the given (source, destination) pairs; return the blocks as rows."""
    moved = jax.shard_map(lambda b: jax.lax.ppermute(b, "x", perm=perm), mesh=mesh,
                          in_specs=P("x"), out_specs=P("x"))(x)
    return np.asarray(moved).reshape(n, 2)


ring = [(i, (i + 1) % n) for i in range(n)]  # device i sends to device i + 1, the last to 0
shifted = send(ring)
print("before:", host.reshape(n, 2).tolist())
print("ring:  ", shifted.tolist())
assert np.array_equal(shifted.ravel(), np.roll(host, 2))  # every block moved one device right

# A device that is nobody's destination receives zeros.
line = [(i, i + 1) for i in range(n - 1)]  # no wrap-around: device 0 receives nothing
opened = send(line)
print("line:  ", opened.tolist())
assert np.array_equal(opened[0], [0.0, 0.0]) and np.array_equal(opened[1:], shifted[1:])

# perm must be a permutation: a shared source or destination is refused.
for bad in ([(0, 1), (2, 1)], [(0, 1), (0, 2)]):
    try:
        send(bad)
    except ValueError as err:
        print(f"perm={bad}: ValueError: {str(err).splitlines()[0]}")
        assert "must be unique" in str(err)
    else:
        raise AssertionError(f"perm={bad} should be refused")

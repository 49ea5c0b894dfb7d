"""ppermute sends each block along (source, destination) pairs: a ring shift by one device."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The accelerators if there are 8 of them, else the 8 emulated CPU devices.
devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((8,), ("x",), devices=devices)
host = np.arange(16.0, dtype=np.float32)  # device i holds [2i, 2i + 1]
x = jax.device_put(host, NamedSharding(mesh, P("x")))


def send(perm):
    """Run ppermute with the given (source, destination) pairs; return the blocks as rows."""
    moved = jax.shard_map(lambda b: jax.lax.ppermute(b, "x", perm=perm), mesh=mesh,
                          in_specs=P("x"), out_specs=P("x"))(x)
    return np.asarray(moved).reshape(8, 2)


ring = [(i, (i + 1) % 8) for i in range(8)]  # device i sends to device i + 1, 7 wraps to 0
shifted = send(ring)
print("before:", host.reshape(8, 2).tolist())
print("ring:  ", shifted.tolist())
assert np.array_equal(shifted.ravel(), np.roll(host, 2))  # every block moved one device right

# A device that is nobody's destination receives zeros.
line = [(i, i + 1) for i in range(7)]  # no wrap-around: device 0 receives nothing
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

"""A Pallas kernel inside jax.shard_map: each device runs it on its own shard."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.sharding import ManualAxisType, NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")
mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)


def square_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * x_ref[...]


def local_square(x_shard, out_shape):  # sees one shard, (16, 128) on 8 devices: the kernel is written for it
    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))  # a TPU-legal block
    return pl.pallas_call(square_kernel, out_shape=out_shape, grid=(x_shard.shape[0] // 8,),
                          in_specs=[spec], out_specs=spec, interpret=True)(x_shard)


x = jax.device_put(jnp.arange(128 * 128, dtype=jnp.float32).reshape(128, 128),
                   NamedSharding(mesh, P("x")))

# Default check_vma=True: out_shape must say the output varies along "x", and then the
# interpret-mode loop of the pinned JAX still rejects its own NaN-initialized output.
varying = ManualAxisType(varying=frozenset({"x"}))
checked = lambda s: local_square(s, jax.ShapeDtypeStruct(s.shape, s.dtype, manual_axis_type=varying))
try:
    jax.jit(jax.shard_map(checked, mesh=mesh, in_specs=P("x"), out_specs=P("x")))(x)
    raise AssertionError("expected the check_vma=True call to fail in interpret mode")
except TypeError as err:
    first_line = str(err).splitlines()[0]
print("check_vma=True :", first_line)
assert "while_loop body function carry input and carry output" in first_line

unchecked = lambda s: local_square(s, jax.ShapeDtypeStruct(s.shape, s.dtype))
f = jax.jit(jax.shard_map(unchecked, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))
y = f(x)
print("check_vma=False: shard", x.addressable_shards[0].data.shape, "-> output", y.shape, y.sharding.spec)
assert x.addressable_shards[0].data.shape == (128 // len(devices), 128)
assert y.sharding.is_equivalent_to(x.sharding, x.ndim)  # rows stay split over "x"
assert np.array_equal(np.asarray(y), np.asarray(x) ** 2)

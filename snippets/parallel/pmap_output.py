"""A pmap result is an ordinary jax.Array with a NamedSharding; the pmap-only types and helpers are gone."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

n = len(devices)
double = jax.pmap(lambda row: row * 2, axis_name="devices", devices=devices)
out = double(jnp.arange(n * 3.0).reshape(n, 3))

print("type:    ", type(out).__name__, "| is a jax.Array:", isinstance(out, jax.Array))
print("sharding:", out.sharding)
print("shard on one device:", out.addressable_shards[0].data.shape)
assert isinstance(out.sharding, NamedSharding)
assert out.sharding.mesh.axis_names == ("devices",)  # a 1-D mesh named after axis_name
assert out.sharding.spec == P("devices")  # the leading axis is split over that mesh axis
assert out.addressable_shards[0].data.shape == (1, 3)  # each device keeps its row, rank unchanged

# Because it is a normal sharded array, jax.jit and jnp functions take it as it is.
total = jax.jit(jnp.sum)(out)
assert total == 2 * jnp.arange(n * 3.0).sum()

# The pmap-specific pieces from older code no longer exist in this JAX.
gone = {
    "jax.sharding.PmapSharding": hasattr(jax.sharding, "PmapSharding"),
    "jax.device_put_replicated": hasattr(jax, "device_put_replicated"),
    "jax.device_put_sharded": hasattr(jax, "device_put_sharded"),
    "config jax_pmap_shmap_merge": hasattr(jax.config, "jax_pmap_shmap_merge"),
}
print("still present?", gone)
assert not any(gone.values())
assert hasattr(jax.config, "jax_enable_x64")  # a config option that does exist reads as present

# Its docstring sends new code elsewhere.
print("jax.pmap.__doc__:", jax.pmap.__doc__.splitlines()[0])
assert jax.pmap.__doc__.startswith("Old way of doing parallel map. Use :py:func:`jax.shard_map` instead.")

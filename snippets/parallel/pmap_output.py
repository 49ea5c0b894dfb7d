"""A pmap result is an ordinary jax.Array with a NamedSharding; the pmap-only types and helpers are gone."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # the host CPU, even where a GPU is present
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # 8 emulated devices; must come before `import jax`
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding

n = jax.device_count()
out = jax.pmap(lambda row: row * 2, axis_name="devices")(jnp.arange(n * 3.0).reshape(n, 3))

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

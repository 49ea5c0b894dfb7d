"""One process with 8 emulated CPU devices: its collectives need no jax_cpu_collectives_implementation."""
import os

os.environ["JAX_PLATFORMS"] = "cpu"  # CPU by design: the CPU backend's own collectives are the subject
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding

print("default:", jax.config.jax_cpu_collectives_implementation)
assert jax.config.jax_cpu_collectives_implementation == "gloo"
# Turn the cross-process library off before the CPU backend starts: one process does not use it.
jax.config.update("jax_cpu_collectives_implementation", None)

devices = jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too
mesh = jax.make_mesh((8,), ("x",), devices=devices)

total = jax.jit(jax.shard_map(lambda block: jax.lax.psum(block.sum(), "x"),  # each device: its 8 numbers
                              mesh=mesh, in_specs=P("x"), out_specs=P()))
x = jax.device_put(jnp.arange(64.0), NamedSharding(mesh, P("x")))  # 8 numbers per device
hlo = total.lower(x).compile().as_text()
print("processes:", jax.process_count(), "| option now:", jax.config.jax_cpu_collectives_implementation,
      "| all-reduce in the compiled program:", "all-reduce" in hlo, "| psum:", total(x))
assert jax.process_count() == 1 and jax.config.jax_cpu_collectives_implementation is None
assert "all-reduce" in hlo and total(x) == 64 * 63 / 2  # a real collective over the 8 devices, and the right sum
cpu = jax.devices("cpu")  # the CPU backend started with the option off, and has all its devices
print("CPU devices in this process:", len(cpu))
assert len(cpu) == int(os.environ["JAX_NUM_CPU_DEVICES"])

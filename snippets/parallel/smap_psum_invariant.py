"""psum of a value that is already the same on every device: one copy per device is added up."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("i",), devices=devices)
x = jnp.arange(4.0)  # in_specs=P(): every device gets all of x, so the value is invariant
seen = {}


def total(v):
    seen["v"] = jax.typeof(v)  # recorded while tracing
    return jax.lax.psum(v, "i")


summed = jax.shard_map(total, mesh=mesh, in_specs=P(), out_specs=P())(x)
print("v inside shard_map:", seen["v"], "| varies over:", set(seen["v"].manual_axis_type.varying))
print("psum of invariant x:", summed)
assert not seen["v"].manual_axis_type.varying  # invariant: no {V:i} in its type
assert jnp.array_equal(summed, len(devices) * x)  # one copy of x per device

# The jaxpr shows how: psum needs a varying operand, so JAX first inserts pvary (no communication),
# which marks v as varying over i, and then sums the equal copies.
jaxpr = str(jax.make_jaxpr(jax.shard_map(total, mesh=mesh, in_specs=P(), out_specs=P()))(x))
body = [line.strip() for line in jaxpr.splitlines() if "pvary" in line or "psum" in line]
print("\n".join(body))
assert any("pvary" in line for line in body) and any("psum" in line for line in body)

# Turning the type check off does not change the arithmetic.
unchecked = jax.shard_map(lambda v: jax.lax.psum(v, "i"), mesh=mesh, in_specs=P(), out_specs=P(),
                          check_vma=False)(x)
assert jnp.array_equal(unchecked, summed)

# What you usually meant: the value itself (pmean of equal copies), or the number of devices.
averaged = jax.shard_map(lambda v: jax.lax.pmean(v, "i"), mesh=mesh, in_specs=P(), out_specs=P())(x)
count = jax.shard_map(lambda v: jax.lax.axis_size("i") + 0 * v, mesh=mesh, in_specs=P(), out_specs=P())(x)
print("pmean:", averaged, "| axis_size:", count[0])
assert jnp.array_equal(averaged, x) and count[0] == len(devices)

"""jax.set_mesh makes a mesh the default, so a bare PartitionSpec is enough to place data."""
import os
import threading

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((2, len(devices) // 2), ("x", "y"), devices=devices)
x = jnp.arange(128.0).reshape(8, 16)

# As a context manager: the mesh is the default inside the block only.
with jax.set_mesh(mesh):
    assert jax.sharding.get_mesh() is mesh
    rows = jax.device_put(x, P("x"))  # no NamedSharding needed: the mesh is implied
    cols = jnp.zeros((8, 16), out_sharding=P(None, "y"))  # create arrays already split
print("inside with:", rows.sharding)
print("out_sharding:", cols.sharding.spec)
assert rows.sharding == NamedSharding(mesh, P("x"))
assert cols.sharding == NamedSharding(mesh, P(None, "y"))

# Outside the block there is no default mesh, and a bare PartitionSpec is an error.
assert jax.sharding.get_mesh().empty
try:
    jax.device_put(x, P("x"))
except ValueError as err:
    print("ValueError:", err)
    assert "jax.set_mesh" in str(err)
else:
    raise AssertionError("a bare PartitionSpec needs a mesh")

# As a global setter, for scripts; set_mesh(None) clears it again.
jax.set_mesh(mesh)
try:
    assert jax.device_put(x, P("x")).sharding == NamedSharding(mesh, P("x"))
    seen = {}  # the global setting belongs to this thread: another thread sees no mesh
    worker = threading.Thread(target=lambda: seen.update(empty=jax.sharding.get_mesh().empty))
    worker.start()
    worker.join()
    print("another thread sees an empty mesh:", seen["empty"])
    assert seen["empty"] and not jax.sharding.get_mesh().empty
finally:
    jax.set_mesh(None)  # leave no global mesh behind
assert jax.sharding.get_mesh().empty
print("after set_mesh(None): empty mesh =", jax.sharding.get_mesh().empty)

# Not inside a traced function: set the mesh around the call instead.
try:
    jax.jit(lambda v: jax.set_mesh(mesh) and v)(x)
except ValueError as err:
    print("inside jax.jit -> ValueError:", err)
    assert "outside of `jax.jit`" in str(err)
else:
    raise AssertionError("set_mesh inside jax.jit should fail")

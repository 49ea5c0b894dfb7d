"""The errors you meet when a PartitionSpec does not fit the array or the mesh."""
import os
import textwrap

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh_shape = (2, len(devices) // 2) if len(devices) > 2 else (1, 2)  # 2 x 4 on 8 devices; y has at least 2
mesh = jax.make_mesh(mesh_shape, ("x", "y"), devices=devices)
y = mesh.shape["y"]
CASES = [  # (what goes wrong, array shape, spec, a stable part of the message)
    (f"{3 * y // 2} rows over {y} devices", (3 * y // 2, 16), P("y"), "evenly divide"),  # 6 over 4 on 8
    ("more entries than dimensions", (8,), P("x", "y"), "must be equal to aval's ndim"),
    ("a name that is not in the mesh", (8, 16), P("z"), "not found in mesh"),
    ("one mesh axis used twice", (8, 16), P("x", "x"), "duplicate entries"),
]
for what, shape, spec, expected in CASES:
    try:
        jax.device_put(jnp.zeros(shape), NamedSharding(mesh, spec))
    except Exception as err:  # ValueError, except the last case (DuplicateSpecError)
        print(f"{what}:\n  {type(err).__name__}: {textwrap.shorten(str(err), 140)}")
        assert expected in str(err)
        assert isinstance(err, ValueError) or type(err).__name__ == "DuplicateSpecError"
    else:
        raise AssertionError(f"{what}: expected an error")

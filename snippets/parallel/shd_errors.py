"""The errors you meet when a PartitionSpec does not fit the array or the mesh."""
import os
import textwrap

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

# The accelerators if there are 8 of them, else the 8 emulated CPU devices.
devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((2, 4), ("x", "y"), devices=devices)
CASES = [  # (what goes wrong, array shape, spec, a stable part of the message)
    ("6 rows over 4 devices", (6, 16), P("y"), "evenly divide"),
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

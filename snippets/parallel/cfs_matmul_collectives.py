"""Which collective XLA inserts for a sharded matmul, read from the compiled HLO."""
import os
import re

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax import P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
a = np.arange(16 * 32, dtype=np.float32).reshape(16, 32)  # (batch, features)
w = np.ones((32, 8), np.float32)  # (features, outputs)
# Backends that run collectives asynchronously (GPU, TPU) print start/done pairs such as
# all-reduce-start and all-reduce-done; the optional "-start" below matches those as well.
COLLECTIVE = re.compile(r"\S+ = [^=\n]* (all-reduce|all-gather|reduce-scatter|all-to-all)(?:-start)?\([^)]*\)")


def compiled_collectives(spec_a, spec_w, out_spec):
    """Shard a and w, compile a @ w with the given output sharding, return HLO lines and result."""
    a_s, w_s = jax.device_put(a, spec_a), jax.device_put(w, spec_w)
    matmul = jax.jit(lambda a, w: jnp.matmul(a, w, out_sharding=out_spec))
    hlo = matmul.lower(a_s, w_s).compile().as_text()
    return [m.group(0) for m in COLLECTIVE.finditer(hlo)], matmul(a_s, w_s)


cases = {  # name: (sharding of a, sharding of w, sharding of the result)
    "batch": (P("x", None), P(), P("x", None)),
    "contracting": (P(None, "x"), P("x", None), P()),
    "contracting, rows out": (P(None, "x"), P("x", None), P("x", None)),
    "a rows, w columns": (P("x", None), P(None, "x"), P("x", None)),
}
found = {}
with jax.set_mesh(mesh):  # lets device_put and out_sharding take a bare P
    for name, specs in cases.items():
        lines, out = compiled_collectives(*specs)
        found[name] = {COLLECTIVE.match(line).group(1) for line in lines}
        print(f"{name}: a {specs[0]}, w {specs[1]} -> {jax.typeof(out)}")
        print("   ", "\n    ".join(lines) or "(no collective)")
        assert np.allclose(out, a @ w)  # same numbers whatever the sharding

assert found["batch"] == set()  # each device multiplies its own rows
assert found["contracting"] == {"all-reduce"}  # partial sums must be added up
assert found["contracting, rows out"] & {"all-reduce", "reduce-scatter"}
if jax.default_backend() == "cpu":  # XLA:CPU adds with an all-reduce, then each device slices
    assert found["contracting, rows out"] == {"all-reduce"}
assert found["a rows, w columns"] == {"all-gather"}  # every device needs all of w

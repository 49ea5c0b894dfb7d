"""Each JAX collective and the HLO operation it compiles to, read from the compiled program."""
import os
import re

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
x = jax.device_put(jnp.arange(64.0), NamedSharding(mesh, P("x")))  # block (8,) per device on 8 devices
ring = [(i, (i + 1) % len(devices)) for i in range(len(devices))]
collectives = {  # name: (per-device code, out_specs)
    "psum": (lambda b: jax.lax.psum(b, "x"), P()),
    "pmean": (lambda b: jax.lax.pmean(b, "x"), P()),
    "pmax": (lambda b: jax.lax.pmax(b, "x"), P()),
    "all_gather": (lambda b: jax.lax.all_gather(b, "x", tiled=True), P("x")),
    "psum_scatter": (lambda b: jax.lax.psum_scatter(b, "x", tiled=True), P("x")),
    "all_to_all": (lambda b: jax.lax.all_to_all(b, "x", 0, 0, tiled=True), P("x")),
    "ppermute": (lambda b: jax.lax.ppermute(b, "x", perm=ring), P("x")),
    "axis_index": (lambda b: b + jax.lax.axis_index("x"), P("x")),
}
HLO_OPS = "all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute"
# Backends that run collectives asynchronously (GPU, TPU) print start/done pairs such as
# all-reduce-start and all-reduce-done; the optional "-start" below matches those as well.
found = {}
print(f"{'JAX collective':15} HLO operation in the compiled program")
for name, (body, out_specs) in collectives.items():
    f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=out_specs))
    hlo = f.lower(x).compile().as_text()
    found[name] = sorted(set(re.findall(rf" ({HLO_OPS})(?:-start)?\(", hlo)))
    print(f"{name:15} {', '.join(found[name]) or '(none: no communication)'}")
assert found["psum"] == found["pmean"] == found["pmax"] == ["all-reduce"]
assert found["all_gather"] == ["all-gather"] and found["psum_scatter"] == ["reduce-scatter"]
assert found["all_to_all"] == ["all-to-all"] and found["ppermute"] == ["collective-permute"]
assert found["axis_index"] == []

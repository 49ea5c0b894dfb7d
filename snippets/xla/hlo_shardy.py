"""Sharded programs: Shardy's shardings (sdy) in the StableHLO; XLA's SPMD partitioner writes each device's program."""
import glob
import os
import re
import tempfile

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too

print("jax_use_shardy_partitioner:", jax.config.jax_use_shardy_partitioner)
mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
n = len(devices)
x = jax.device_put(jnp.arange(32.0).reshape(8, 4), NamedSharding(mesh, P("x")))  # rows split n ways
block = f"f32[{8 // n},4]"  # one device's rows: f32[1,4] on 8 devices
column_sums = jax.jit(lambda x: jnp.sin(x).sum(axis=0))

lowered = column_sums.lower(x)
sdy_lines = [line.strip() for line in lowered.as_text().splitlines() if "sdy." in line]
sdy_names = sorted(set(re.findall(r"sdy\.[a-z_]+", lowered.as_text())))
print(f"StableHLO: {len(sdy_lines)} lines with Shardy names {sdy_names}, the first:")
print("  ", sdy_lines[0])
hlo = lowered.compile().as_text()
entry = hlo[hlo.index("ENTRY"):]
print("compiled, per-device parameter:", entry.splitlines()[1].split(", metadata")[0].strip())
print("compiled, collectives:", sorted({w.split("(")[0] for w in entry.split() if w.startswith("all-")}))

assert jax.config.jax_use_shardy_partitioner  # the default in the pinned JAX
assert any(line.startswith("sdy.mesh @") for line in sdy_lines)  # the mesh, as a Shardy op
assert "sdy.sharding" in sdy_names  # ... and the arguments' shardings, as Shardy attributes
assert block in entry.splitlines()[1]  # each device holds its rows of the 8 x 4 input
assert re.search(r" all-reduce(?:-start)?\(", entry)  # the sum over devices (start/done pairs where it runs async)
assert jnp.allclose(column_sums(x), jnp.sin(jnp.arange(32.0).reshape(8, 4)).sum(axis=0))

# Who does what: dump the module after Shardy's pass (shardy-xla) and after XLA's SPMD partitioner.
with tempfile.TemporaryDirectory() as dump:
    lowered.compile(compiler_options={"xla_dump_to": dump, "xla_dump_hlo_pass_re": "shardy-xla|spmd-partitioning"})
    after = {}
    for name in os.listdir(dump):
        for pass_name in ("shardy-xla", "spmd-partitioning"):
            if f".after_{pass_name}." in name:
                with open(os.path.join(dump, name)) as f:
                    text = f.read()
                after[pass_name] = text[text.index("ENTRY"):]
    shardy_stages = sorted(os.path.basename(p) for p in glob.glob(os.path.join(dump, "shardy", "*", "*.mlir")))
for pass_name in (p for p in ("shardy-xla", "spmd-partitioning") if p in after):  # in pass order
    print(f"after {pass_name}: {after[pass_name].splitlines()[0]} | all-reduce: {' all-reduce(' in after[pass_name]}")
print("Shardy's own stages:", shardy_stages)
if devices[0].platform == "cpu":  # XLA:CPU's pass names, read off this run
    # After Shardy: still the whole 8 x 4 program, each instruction with its sharding, no collective.
    assert "f32[8,4]" in after["shardy-xla"].splitlines()[0] and " sharding={" in after["shardy-xla"]
    assert " all-reduce(" not in after["shardy-xla"]
    # After the SPMD partitioner: one device's program, with the all-reduce.
    assert block in after["spmd-partitioning"].splitlines()[0] and " all-reduce(" in after["spmd-partitioning"]
    assert any(n.endswith("after_propagation.mlir") for n in shardy_stages)

# Migration note: the older path, GSPMD, writes mhlo.sharding strings instead of sdy ops.
jax.config.update("jax_use_shardy_partitioner", False)
gspmd_text = column_sums.lower(x).as_text()
jax.config.update("jax_use_shardy_partitioner", True)
print("GSPMD lowering: sdy ops:", gspmd_text.count("sdy."), "| mhlo.sharding:", gspmd_text.count("mhlo.sharding"))
assert "sdy." not in gspmd_text and f'mhlo.sharding = "{{devices=[{n},1]<=[{n}]}}"' in gspmd_text  # rows split n ways

"""Which buffers fill the step's memory: the buffer-assignment and memory-usage reports of an XLA dump."""
import glob
import os
import re
import tempfile

dump = tempfile.TemporaryDirectory()
# XLA reads XLA_FLAGS once, when JAX starts its backend: set it before importing jax.
os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} --xla_dump_to={dump.name}".strip()
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402


def loss_fn(params, x, y):
    h = jax.nn.relu(x @ params["w1"])
    h = jax.nn.relu(h @ params["w2"])
    return jnp.mean((h @ params["w3"] - y) ** 2)


def step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


params = {"w1": jnp.zeros((512, 1024)), "w2": jnp.zeros((1024, 1024)), "w3": jnp.zeros((1024, 10))}
x, y = jax.ShapeDtypeStruct((256, 512), jnp.float32), jax.ShapeDtypeStruct((256, 10), jnp.float32)
m = jax.jit(step).lower(params, x, y).compile().memory_analysis()

buffers_file, = glob.glob(os.path.join(dump.name, "*jit_step*after_optimizations-buffer-assignment.txt"))
reports = glob.glob(os.path.join(dump.name, "*jit_step*after_optimizations-memory-usage-report.txt"))
print(os.path.basename(buffers_file))
print(os.path.basename(reports[0]) if reports else f"{jax.default_backend()} wrote no memory-usage report")

# buffer-assignment.txt: "allocation N: size S, <kind>:" then one " value: <id name @0> (size=..): shape" per HLO value.
allocations = []
for line in open(buffers_file).read().splitlines():
    if line.startswith("allocation "):
        kind = ("parameter" if "parameter" in line else "temp" if "preallocated-temp" in line
                else "output" if "maybe-live-out" in line else "other")
        allocations.append((int(re.search(r"size (\d+)", line).group(1)), kind, []))
    elif line.startswith(" value:"):
        name, shape = re.search(r"<\d+ (\S+) @\d+> \(.*\): (\S+)", line).groups()
        allocations[-1][2].append((name, shape.split("{")[0]))
allocations.sort(key=lambda a: -a[0])
for size, kind, shapes in allocations[:4]:
    more = f" (+{len(shapes) - 3} more)" if len(shapes) > 3 else ""
    print(f"{size / 2**20:5.2f} MiB {kind:9s}", ", ".join(f"{name} {shape}" for name, shape in shapes[:3]) + more)
temp = next((a for a in allocations if a[1] == "temp"), (0, "temp", []))
print(f"temp allocation {temp[0] / 2**20:.2f} MiB holds", sorted({shape for _, shape in temp[2]}))

planned = m.argument_size_in_bytes + m.output_size_in_bytes + m.temp_size_in_bytes
print(f"memory_analysis temps {m.temp_size_in_bytes}; arguments + outputs + temps {planned}")
if reports:
    total = int(re.search(r"Total bytes: (\d+)", open(reports[0]).read()).group(1))
    print(f"memory-usage-report total {total} bytes")
dump.cleanup()

largest_size, _, largest = allocations[0]
if jax.default_backend() == "cpu":  # XLA:CPU's buffer plan; other backends add buffers of their own (GPU: library workspace)
    assert reports and total >= m.temp_size_in_bytes and temp[0] > 0  # the report counts the scratch space too
    assert m.temp_size_in_bytes > 0  # a TPU v5e reported 0 here, with a temp allocation in its dump
    assert largest_size == params["w2"].nbytes  # the largest buffer is w2's 4 MiB ...
    assert "f32[1024,1024]" in {shape for _, shape in largest}  # ... holding [1024,1024] values
    assert "f32[256,1024]" in {shape for _, shape in temp[2]}  # the activations live in the scratch space
    assert temp[0] == m.temp_size_in_bytes  # one scratch allocation: memory_analysis' temp size
    assert abs(total - planned) < 1024  # the report adds only a few scalars to the planned sum

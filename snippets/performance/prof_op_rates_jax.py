"""An op's FLOP rate and HBM bandwidth read from a profile with jax.profiler.ProfileData, against the device's peaks."""
# The timings this program prints differ from run to run and from machine to machine.
import collections
import math
import re
import statistics
import tempfile
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp

backend = jax.default_backend()
n, dtype = (8192, jnp.bfloat16) if backend != "cpu" else (256, jnp.float32)  # small on the CPU
ka, kb, kx = jax.random.split(jax.random.key(0), 3)
a = jax.random.normal(ka, (n, n), dtype)
b = jax.random.normal(kb, (n, n), dtype)
x = jax.random.normal(kx, (n, n), dtype)


@jax.jit
def step(a, b, x):  # one matrix product and one reduction over another array: two ops, no shared operand
    return a @ b, jnp.sum(x, axis=1, dtype=jnp.float32)


compiled = step.lower(a, b, x).compile()
hlo = compiled.as_text()
jax.block_until_ready(step(a, b, x))  # compiled and warm

options = jax.profiler.ProfileOptions()
options.python_tracer_level = 0
with tempfile.TemporaryDirectory() as log_dir:
    with jax.profiler.trace(log_dir, profiler_options=options):
        for _ in range(5):
            out = step(a, b, x)
        jax.block_until_ready(out)
    profile = jax.profiler.ProfileData.from_file(str(next(Path(log_dir).rglob("*.xplane.pb"))))

Event = collections.namedtuple("Event", "plane line name duration_ns stats")


def read_stats(stats):
    """A plane's or event's stats as a dict, without the values that are bytes, not text (the TPU plane of
    the pinned TPU runtime holds one: the binding fails to decode it as UTF-8, then moves on to the next stat)."""
    found, items = {}, iter(stats)
    while True:
        try:
            name, value = next(items)
        except StopIteration:
            return found
        except UnicodeDecodeError:
            continue
        found[name] = value


with warnings.catch_warnings():  # jaxlib 0.12 warns once that its stats types have no __module__: harmless
    warnings.simplefilter("ignore", DeprecationWarning)
    plane_stats = {plane.name: read_stats(plane.stats) for plane in profile.planes}
    events = [Event(plane.name, line.name, event.name, event.duration_ns, read_stats(event.stats))
              for plane in profile.planes for line in plane.lines for event in line.events]

# Shapes in HLO text: "bf16[8192,8192]{1,0:T(8,128)(2,1)}"; the layout in braces is not part of the shape.
SHAPE = re.compile(r"\b(pred|[su](?:8|16|32|64)|f16|bf16|f32|f64)\[([\d,]*)\]")
SIZE = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2,
        "s32": 4, "u32": 4, "f32": 4, "s64": 8, "u64": 8, "f64": 8}


def shape_of(text):
    dt, dims = SHAPE.search(text).groups()
    return dt, tuple(int(d) for d in dims.split(",") if d)


# The compiled program's instructions by name: XLA:CPU's op events carry only the name (stat hlo_op),
# and its HLO text names operands without their shapes, so those come from here.
defined = {m[0]: shape_of(m[1]) for m in re.findall(r"^\s*(?:ROOT )?%([\w.\-]+) = (\S+)", hlo, re.M)
           if SHAPE.match(m[1])}
lines = {m[0]: m[1] for m in re.findall(r"^\s*(?:ROOT )?%([\w.\-]+) = (.*)$", hlo, re.M)}


def parse(text):
    """'%name = <result> opcode(<operands>), ...' -> (name, result shapes, operand shapes), or None."""
    name, _, rest = text.lstrip("%").partition(" = ")
    opcode = re.search(r" [a-z][\w\-]*\(", rest)
    if not opcode:
        return None
    start = opcode.end()
    depth, end, operands = 0, start, []
    for i in range(start, len(rest)):  # the operand list, up to its closing parenthesis
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(rest[i], 0)
        if depth < 0 or (depth == 0 and rest[i] == ","):
            operands.append(rest[end:i].strip())
            end = i + 1
            if depth < 0:
                break
    results = [shape_of(m.group(0)) for m in SHAPE.finditer(rest[:start])]
    shapes = [shape_of(o) if SHAPE.search(o) else defined.get(o.split()[-1].lstrip("%")) for o in operands if o]
    return (name, results, shapes) if all(shapes) else None


def nbytes(shapes):
    return sum(SIZE[dt] * math.prod(dims) for dt, dims in shapes)


device = [e for e in events if e.plane.startswith("/device:")]
if device:  # a GPU or a TPU: one event per HLO op on the device plane's "XLA Ops" line, named by its HLO text
    plane = device[0].plane
    def parse_event(e):  # the event's own HLO text, else the compiled program's line of that name
        name = e.name.split(" = ")[0].lstrip("%")
        return parse(e.name) or (parse(f"%{name} = {lines[name]}") if name in lines else None)
    ops = [(parse_event(e), e) for e in device if e.line == "XLA Ops" and parse_event(e)]
    modules = [e for e in device if e.line == "XLA Modules" and e.name.startswith("jit_step")]
    step = (f"{statistics.median(e.duration_ns for e in modules) / 1e3:.1f} µs, median of {len(modules)}"
            if modules else "no jit_step event")
    print(f"{backend}: {len(ops)} op events on {plane}, line 'XLA Ops'; step time (XLA Modules): {step}")
else:  # XLA:CPU: op events on the host's threads, named by the instruction (stat hlo_op): its text is in hlo
    plane = "/host:CPU"
    cpu_ops = [e for e in events if e.stats.get("hlo_module") == "jit_step"]
    ops = [(parse(f"%{e.stats['hlo_op']} = {lines[e.stats['hlo_op']]}"), e) for e in cpu_ops]
    runs = collections.defaultdict(list)
    for e in cpu_ops:
        runs[e.stats["run_id"]].append(e.duration_ns)
    step_ns = statistics.median(sum(r) for r in runs.values())
    print(f"{backend}: no device plane; {len(ops)} op events with hlo_op stats on the host's threads; "
          f"summed op time {step_ns / 1e3:.1f} µs per step, median of {len(runs)} (no 'XLA Modules' line)")

# the product: two (n, n) operands first, an (n, n) result
matmul = [(p, e) for p, e in ops if len(p[2]) >= 2 and p[2][0][1] == p[2][1][1] == (n, n) and p[1][:1]
          and p[1][0][1] == (n, n)]
# the op that reads x: one (n, n) operand, a far smaller result (one fusion on the CPU and on a TPU v5e)
reduce = [(p, e) for p, e in ops if len(p[2]) == 1 and p[2][0][1] == (n, n) and 8 * nbytes(p[1]) < nbytes(p[2])]
if not reduce:  # not one fusion on this backend: take the other op that moves the most bytes
    reduce = sorted([(p, e) for p, e in ops if (p, e) not in matmul], key=lambda pe: -nbytes(pe[0][1] + pe[0][2]))[:1]
assert matmul and reduce, sorted({p[0] for p, _ in ops})
if device:  # what an op event carries besides its name: times, no count of flops or bytes
    print(f"stats of an 'XLA Ops' event: {sorted(matmul[0][1].stats)}")
peaks = plane_stats.get(plane, {})
peak_tflops = float(peaks["peak_teraflops_per_second"]) if "peak_teraflops_per_second" in peaks else None
peak_gbs = float(peaks["peak_hbm_bw_gigabytes_per_second"]) if "peak_hbm_bw_gigabytes_per_second" in peaks else None
print(f"peaks in {plane}'s stats: " + (f"{peak_tflops} TFLOP/s, {peak_gbs} GB/s, a ridge point of "
                                      f"{peak_tflops * 1e3 / peak_gbs:.0f} flops/byte" if peak_tflops else "none"))

rates = {}
for kind, found in (("matmul", matmul), ("reduction", reduce)):
    (name, results, operands), _ = found[0]
    seconds = statistics.median(e.duration_ns for p, e in found if p[0] == name) / 1e9  # one event per step
    if kind == "matmul":  # (M, K) @ (K, N): M*N dot products of length K, a multiply and an add each
        (_, (m, k)), (_, (_, n2)) = operands
        flops = 2 * m * n2 * k
    else:  # one add per element read
        flops = math.prod(operands[0][1])
    moved = nbytes(operands) + nbytes(results)  # what the op reads and writes in HBM, once each
    tflops, gbs = flops / seconds / 1e12, moved / seconds / 1e9
    rates[kind] = (flops, tflops, gbs)
    share = (f"{tflops / peak_tflops:.0%} of peak FLOP/s, {gbs / peak_gbs:.0%} of peak HBM bandwidth"
             if peak_tflops and peak_gbs else "no peak in the profile to compare to")
    print(f"{kind} ({name}): {seconds * 1e6:.1f} µs  {flops:.3g} flops  {moved / 2**20:.1f} MiB ({flops / moved:.3g} flops/byte)  "
          f"{tflops:.3g} TFLOP/s  {gbs:.3g} GB/s  ({share})")

dot_only = jax.jit(jnp.matmul).lower(a, b).compile().cost_analysis()
dot_only = dot_only[0] if isinstance(dot_only, list) else dot_only  # a list of one dict on older jax
print(f"2*M*N*K from the HLO shapes: {rates['matmul'][0]:.6e}; cost_analysis() of a program of "
      f"just a @ b: {dot_only['flops']:.6e}")
assert rates["matmul"][0] == 2 * n**3 == dot_only["flops"]  # the same count, FMA as two flops
if backend == "cpu":  # the CPU profile: no device plane, op events on host threads, no peaks to compare to
    assert not device and all("hlo_op" in e.stats for _, e in ops)
    assert not any(k.startswith("peak_") for stats in plane_stats.values() for k in stats)
if backend == "tpu":  # seen on a TPU v5e: a large bf16 product near the peak, a reduction near HBM bandwidth
    assert rates["matmul"][1] > 0.5 * peak_tflops
    assert rates["reduction"][2] > 0.5 * peak_gbs

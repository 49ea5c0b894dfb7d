"""FLOP/s of square matrix products: cost_analysis() flops and bytes, timed runs, share of the peak and the roofline."""
# The timings this program prints differ from run to run and from machine to machine.
import statistics
import time

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import numpy as np

backend = jax.default_backend()
device = jax.devices()[0]
peak = bandwidth = None  # FLOP/s and bytes/s of one chip, when JAX can tell
if backend == "tpu":
    from jax.experimental.pallas import tpu as pltpu

    info = pltpu.get_tpu_info()  # per TensorCore; a chip has num_cores of them
    peak = info.bf16_ops_per_second * info.num_cores
    bandwidth = info.mem_bw_bytes_per_second * info.num_cores
    print(f"{device.device_kind} (chip {info.chip_version.value}): bf16 peak {peak / 1e12:.0f} TFLOP/s, "
          f"HBM {bandwidth / 1e9:.0f} GB/s, ridge point {peak / bandwidth:.0f} flops/byte")
    sizes, big = [1024, 2048, 4096, 8192], 16384
else:
    print(f"{device.device_kind} ({backend}): JAX cannot tell this device's peak; no share of peak is printed")
    sizes, big = [128, 256, 512], None
unit, unit_name = (1e12, "TFLOP/s") if backend in ("tpu", "gpu") else (1e9, "GFLOP/s")

rows = [("bfloat16", jnp.bfloat16, None), ("float32", jnp.float32, None),
        ("float32 high", jnp.float32, "high"), ("float32 highest", jnp.float32, "highest")]


def cost(compiled):
    analysis = compiled.cost_analysis()
    if isinstance(analysis, list):  # older JAX versions return a list of one dict
        analysis = analysis[0]
    return analysis["flops"], analysis["bytes accessed"]


def median_seconds(compiled, a, b):
    compiled(a, b).block_until_ready()  # warm-up
    repeats = 5 if a.shape[0] >= 8192 else 10
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        compiled(a, b).block_until_ready()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


print(f"{'dtype/precision':>16} {'n':>6} {'flops':>9} {'bytes':>9} {'flops/B':>8} {'ms':>8} {unit_name:>8}"
      + (f" {'of peak':>7} {'roofline':>8}" if peak else ""))
results, points = {}, {}  # achieved FLOP/s per (row, n); (intensity, FLOP/s) per row, for the figure
for name, dtype, precision in rows:
    intensities = []
    for n in sizes + ([big] if big and dtype == jnp.bfloat16 else []):
        a, b = (jax.random.normal(k, (n, n), dtype) for k in jax.random.split(jax.random.key(n), 2))
        compiled = jax.jit(lambda x, y, p=precision: jnp.matmul(x, y, precision=p)).lower(a, b).compile()
        flops, nbytes = cost(compiled)
        seconds = median_seconds(compiled, a, b)
        intensity = flops / nbytes
        achieved = flops / seconds
        results[name, n] = achieved
        line = f"{name:>16} {n:>6} {flops:9.2e} {nbytes:9.2e} {intensity:8.0f} {seconds * 1e3:8.3f} {achieved / unit:8.2f}"
        if peak:
            bound = min(peak, bandwidth * intensity)  # the roofline: compute or memory, whichever is lower
            line += f" {achieved / peak:7.1%} {bound / 1e12:8.0f}"
        print(line)
        extra = flops - 2 * n**3
        # XLA counts 2 n^3 for the product; JAX 0.10's CPU backend adds the bfloat16 casts (<= 3 n^2)
        assert extra == 0 or (backend == "cpu" and dtype == jnp.bfloat16 and 0 < extra <= 3 * n**2), (name, n, flops)
        intensities.append(intensity)
        points.setdefault(name, []).append((intensity, achieved))
    assert intensities == sorted(intensities) and intensities[0] < intensities[-1]  # grows with n

if backend == "tpu":
    share = results["bfloat16", big] / peak
    print(f"bfloat16 {big}: {share:.1%} of the chip's bf16 peak")
    assert share >= 0.85
    n = sizes[-1]
    slowdown = results["float32", n] / results["float32 highest", n]
    print(f"float32 {n}: 'highest' takes {slowdown:.1f} times as long as the default")
    assert slowdown > 1

# The roofline figure: each product at its intensity and achieved rate, on log scales; where JAX
# tells the chip's peak and bandwidth, the bound min(peak, bandwidth × intensity) as a line.
labels = {"bfloat16": "bfloat16", "float32": "float32, default precision",
          "float32 high": 'float32, precision "high"', "float32 highest": 'float32, precision "highest"'}
plt.figure(figsize=(5.5, 3.6))
for (name, *_), marker in zip(rows, "os^v"):
    xs, ys = zip(*points[name])
    plt.loglog(xs, [y / unit for y in ys], marker + "-", label=labels[name])
if peak:
    every = [x for name in points for x, _ in points[name]]
    grid = np.geomspace(min(every) / 2, max(every) * 2, 200)
    plt.loglog(grid, np.minimum(peak, bandwidth * grid) / unit, "k--", linewidth=1,
               label="roofline: min(peak, bandwidth × intensity)")
plt.xlabel("arithmetic intensity (flops per byte)")
plt.ylabel(f"achieved {unit_name}")
plt.title("square matrix products")  # the machine is named in the output above
plt.legend(fontsize=7, loc="lower right")
plt.tight_layout()
plt.show()

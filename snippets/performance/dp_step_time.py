"""Time per step: one device, all the devices with jit + shardings, all of them with shard_map."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import statistics
import time

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
jax.config.update("jax_default_device", devices[0])  # the one-device run uses the first of them
emulated = devices[0].platform == "cpu"  # then they all share this machine's CPU cores
many = f"{len(devices)} devices"

kx, k1, k2 = jax.random.split(jax.random.key(0), 3)
x = jax.random.normal(kx, (2048, 256))  # 2048 examples, 256 per device on 8: enough work to time
y = jnp.sin(x.sum(axis=1, keepdims=True))
params = {"w1": jax.random.normal(k1, (256, 512)) / 16, "b1": jnp.zeros(512),
          "w2": jax.random.normal(k2, (512, 1)) / 512**0.5, "b2": jnp.zeros(1)}


def loss_fn(p, x, y):
    return jnp.mean((jnp.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"] - y) ** 2)


def sgd(p, g, lr=0.1):
    return jax.tree.map(lambda a, b: a - lr * b, p, g)


step_jit = jax.jit(lambda p, x, y: sgd(p, jax.grad(loss_fn)(p, x, y)))


def per_device(p, x, y):
    return sgd(p, jax.grad(lambda p: jax.lax.pmean(loss_fn(p, x, y), "data"))(p))


mesh = jax.make_mesh((len(devices),), ("data",), devices=devices)
step_smap = jax.jit(jax.shard_map(per_device, mesh=mesh, in_specs=(P(), P("data"), P("data")),
                                  out_specs=P()))
p_rep = jax.device_put(params, NamedSharding(mesh, P()))
x_b, y_b = jax.device_put((x, y), NamedSharding(mesh, P("data")))

runs = {"one device": (step_jit, (params, x, y)),
        f"{many}, jit + shardings": (step_jit, (p_rep, x_b, y_b)),
        f"{many}, shard_map": (step_smap, (p_rep, x_b, y_b))}
times = {name: [] for name in runs}
for name, (step, args) in runs.items():
    jax.block_until_ready(step(*args))  # compile and warm up outside the timing
for _ in range(30):  # interleave the three, so that they share the same background load
    for name, (step, args) in runs.items():
        start = time.perf_counter()
        jax.block_until_ready(step(*args))
        times[name].append(time.perf_counter() - start)
t = {name: statistics.median(ts) for name, ts in times.items()}

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, {len(devices)} devices: {devices[0].platform}"
      + (" (emulated, sharing those cores)" if emulated else ""))
for name, s in t.items():
    print(f"{name:27} {s * 1e3:7.2f} ms per step (median of 30)")
ratio = t[f"{many}, shard_map"] / t[f"{many}, jit + shardings"]
one = t["one device"] / t[f"{many}, jit + shardings"]
print(f"shard_map / jit: {ratio:.2f}; one device / jit: {one:.2f}")
assert 1 / 3 < ratio < 3  # the same work and the same all-reduce: close, up to noise

plt.figure(figsize=(5, 3))
plt.boxplot([[1e3 * v for v in ts] for ts in times.values()], showfliers=False)
plt.xticks([1, 2, 3], ["one device", "jit + shardings", "shard_map"])
plt.ylabel("time per step (ms)")
plt.title("The same step, three ways")  # which devices: the line printed above
plt.tight_layout()
plt.show()

"""Saving, recomputing or offloading to host memory the activations of a lax.scan over layers: memory and step time."""
# The timings this program prints differ from run to run and from machine to machine.
import statistics
import time

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name

backend = jax.default_backend()
if backend == "cpu":  # tiny on the CPU: the plans and the gradients are the point there, not the times
    L, B, D, dtype = 4, 64, 128, jnp.float32
else:  # 24 layers, 32 MiB of activations per layer in bfloat16
    L, B, D, dtype = 24, 8192, 2048, jnp.bfloat16
kw, kx = jax.random.split(jax.random.key(0))
ws = (jax.random.normal(kw, (L, D, D)) / D**0.5).astype(dtype)  # the stacked weights of the L layers
x = jax.random.normal(kx, (B, D)).astype(dtype)


def layer(h, w):
    z = checkpoint_name(h @ w, "z")  # the value the policies below save, offload or recompute
    return h + jnp.tanh(z), None


def make_loss(policy):
    body = layer if policy == "none" else jax.checkpoint(layer, policy=policy)

    def loss(ws, x):
        h, _ = jax.lax.scan(body, x, ws)  # one compiled body for all L layers
        return jnp.mean(h.astype(jnp.float32) ** 2)
    return loss


cp = jax.checkpoint_policies
policies = {
    "no remat": "none",
    "nothing_saveable": cp.nothing_saveable,
    'save_only_these_names("z")': cp.save_only_these_names("z"),
    'offload "z" to pinned_host': cp.save_and_offload_only_these_names(
        names_which_can_be_saved=[], names_which_can_be_offloaded=["z"],
        offload_src="device", offload_dst="pinned_host"),
}
print(f"{backend}: L={L} layers, B={B}, D={D}, {jnp.dtype(dtype).name}")
print(f"{'policy':28s} {'temp MiB':>9s} {'host temp MiB':>13s} {'S(5) in HLO':>11s} {'copy-starts':>11s} {'step ms':>8s}")
results = {}
for name, policy in policies.items():
    grad = jax.jit(jax.grad(make_loss(policy)))
    compiled = grad.lower(ws, x).compile()
    mem = compiled.memory_analysis()
    g = jax.block_until_ready(compiled(ws, x))  # warm
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        jax.block_until_ready(compiled(ws, x))
        times.append(time.perf_counter() - t0)
    text = compiled.as_text()
    host_space = "S(5)" in text  # XLA's memory space 5: host memory
    copies = text.count(" copy-start(")  # asynchronous copies (between memory spaces, among others)
    results[name] = (g, mem.temp_size_in_bytes, mem.host_temp_size_in_bytes, host_space, statistics.median(times))
    print(f"{name:28s} {mem.temp_size_in_bytes / 2**20:9.1f} {mem.host_temp_size_in_bytes / 2**20:13.1f} "
          f"{host_space!s:>11s} {copies:11d} {statistics.median(times) * 1e3:8.2f}")

g_ref = results["no remat"][0].astype(jnp.float32)
scale = float(jnp.max(jnp.abs(g_ref)))
diff = max(float(jnp.max(jnp.abs(r[0].astype(jnp.float32) - g_ref))) for r in results.values())
print(f"gradients: max |difference| {diff:.2e}, max |gradient| {scale:.2e}")
assert diff <= 0.02 * scale  # the same gradient, whatever each plan keeps (bfloat16 rounding on accelerators)

_, temp_save, host_save, _, t_save = results['save_only_these_names("z")']
_, temp_off, host_off, space_off, t_off = results['offload "z" to pinned_host']
if backend == "cpu":  # the CPU lowering drops the placement: the same plan as saving z, nothing in host memory
    assert host_off == 0 and temp_off == temp_save and not space_off
    print("on the CPU the offload is a no-op: no host temporaries, the same temporaries as saving z,"
          f" so the ratio of their step times, x{t_off / t_save:.2f}, is noise")
else:
    print(f"offloading z instead of saving it on the device: x{t_off / t_save:.2f} the step time")
if backend == "tpu":  # seen on a TPU v5e: the saved z wait in host memory, the device keeps less
    assert host_off > 0 and temp_off < temp_save and space_off
    assert results["nothing_saveable"][1] < temp_save  # keeping z costs more than keeping nothing

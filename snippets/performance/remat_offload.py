"""Offloading policies: a real copy to host memory on a GPU or TPU, dropped when lowered for the CPU."""
import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name

cp = jax.checkpoint_policies
print("backend:", jax.default_backend(),
      "| memories:", [m.kind for m in jax.devices()[0].addressable_memories()])
kw, kx = jax.random.split(jax.random.key(0))
ws = jax.random.normal(kw, (6, 256, 256)) / 16
x = jax.random.normal(kx, (512, 256))


def block(w, h):
    return h + jnp.tanh(checkpoint_name(h @ w, "z"))  # h @ w: a dot with no batch dimension


def make_loss(policy):
    blk = jax.checkpoint(block, policy=policy)
    def loss(ws, x):
        h = x
        for w in ws:
            h = blk(w, h)
        return jnp.mean(h**2)
    return loss


policies = {
    "dots_with_no_batch_dims_saveable": cp.dots_with_no_batch_dims_saveable,
    "offload_dot_with_no_batch_dims": cp.offload_dot_with_no_batch_dims("device", "pinned_host"),
    "save_and_offload_only_these_names": cp.save_and_offload_only_these_names(
        names_which_can_be_saved=[], names_which_can_be_offloaded=["z"],
        offload_src="device", offload_dst="pinned_host"),
}
stats = {}
for name, policy in policies.items():
    grad = jax.jit(jax.grad(make_loss(policy)))
    jaxpr = str(jax.make_jaxpr(grad)(ws, x))
    lowered = grad.lower(ws, x)
    mem = lowered.compile().memory_analysis()
    stats[name] = (grad(ws, x), "<host>" in jaxpr, "annotate_device_placement" in lowered.as_text(),
                   mem.temp_size_in_bytes, mem.host_temp_size_in_bytes)
    print(f"{name}:\n    jaxpr has <host> arrays: {stats[name][1]},"
          f" StableHLO has annotate_device_placement: {stats[name][2]},"
          f"\n    temporaries {stats[name][3] / 2**20:.2f} MiB, host temporaries {stats[name][4]} bytes")

g_ref, _, _, temp_ref, _ = stats["dots_with_no_batch_dims_saveable"]
for name, (g, host_in_jaxpr, placed, temp, host_temp) in stats.items():
    offloads = name != "dots_with_no_batch_dims_saveable"
    assert jnp.allclose(g, g_ref, atol=1e-6)  # the same gradient wherever the residuals live
    assert host_in_jaxpr == offloads  # on every backend, JAX marks the offload in the jaxpr
    if jax.default_backend() == "cpu":  # the CPU lowering drops the marks: nothing moves
        assert not placed and host_temp == 0 and temp == temp_ref  # same plan as keeping them
    elif jax.default_backend() in ("gpu", "tpu"):  # JAX lowers the marks for these two platforms
        assert placed == offloads
    if jax.default_backend() == "tpu":  # seen on a TPU v5e: the residuals wait in host memory
        assert (host_temp > 0) == offloads  # the device temporaries are printed, not compared

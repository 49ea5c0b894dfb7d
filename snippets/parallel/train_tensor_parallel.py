"""Tensor parallelism on a 2-D mesh: batch over dp, Megatron-style kernels split over mp."""
import os
import re

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import optax
from jax import P
from jax.sharding import AxisType, NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too
jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks

kx, kp = jax.random.split(jax.random.key(0))
x = jax.random.normal(kx, (64, 16))  # one batch: 64 examples, 16 features
y = jnp.sin(x.sum(axis=1, keepdims=True) / 4)


def init(key, sizes=(16, 64, 64, 1)):
    keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)}
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def loss_fn(params, x, y):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return jnp.mean((x @ params[-1]["w"] + params[-1]["b"] - y) ** 2)


tx = optax.adam(1e-2)
traces = []  # one entry each time jax.jit traces step: its Python body runs only then


@jax.jit
def step(params, opt_state, x, y):
    traces.append(x.shape)
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, x, y, steps=20):
    opt_state = tx.init(params)  # Adam's moments copy the shapes and shardings of params
    losses = []
    for _ in range(steps):
        params, opt_state, loss = step(params, opt_state, x, y)
        losses.append(loss)
    return params, opt_state, jnp.stack(losses)


def collectives(*args):  # count the communication ops the compiler put into the step
    hlo = step.lower(*args).compile().as_text()
    return {op: len(re.findall(rf"\b{op}(-start)?\(", hlo)) for op in ("all-reduce", "all-gather")}


params = init(kp)
_, _, ref_losses = train(params, x, y)  # the one-device reference

mesh_shape = (2, len(devices) // 2) if len(devices) > 2 else (1, 2)  # 2 x 4 on 8 devices; mp has at least 2
mesh = jax.make_mesh(mesh_shape, ("dp", "mp"), axis_types=(AxisType.Auto,) * 2, devices=devices)
dp, mp = mesh_shape
specs = [{"w": P(None, "mp"), "b": P("mp")},  # layer 1: its 64 outputs split over mp
         {"w": P("mp", None), "b": P()},  # layer 2: its 64 inputs split over mp
         {"w": P(), "b": P()}]  # the small output layer stays replicated
params_d = jax.device_put(params, jax.tree.map(lambda s: NamedSharding(mesh, s), specs))
x_d, y_d = jax.device_put((x, y), NamedSharding(mesh, P("dp", None)))  # 32 examples per dp row on 8 devices
print("parameters:", jax.tree.map(lambda a: a.sharding.spec, params_d))
print("kernel blocks on one device:", [a["w"].addressable_shards[0].data.shape for a in params_d])
assert [a["w"].addressable_shards[0].data.shape for a in params_d] == [(16, 64 // mp), (64 // mp, 64), (64, 1)]
new, opt_state, losses = train(params_d, x_d, y_d)

rel = float(jnp.max(jnp.abs(losses - ref_losses) / ref_losses))
print(f"loss at step 20: one device {float(ref_losses[-1]):.6f}, {dp}x{mp} mesh {float(losses[-1]):.6f}")
print("largest relative difference over the 20 steps:", rel, "(tolerance 1e-5)")
assert rel < 1e-5
for tree in (new, opt_state[0].mu, opt_state[0].nu):  # params and Adam's moments keep the layout
    assert all(a.sharding.is_equivalent_to(b.sharding, a.ndim)
               for a, b in zip(jax.tree.leaves(tree), jax.tree.leaves(params_d)))
print("times step was traced:", len(traces))
# Traced for the reference, for the new placement, and once more: Adam's step count starts on
# one device (tx.init gives it no sharding) and the first step on the mesh returns it there.
assert len(traces) == 3
ops = collectives(params_d, opt_state, x_d, y_d)
print("collectives in the compiled step:", ops)
assert ops["all-reduce"] > 0 and ops["all-gather"] == 0  # partial sums added, no kernel gathered

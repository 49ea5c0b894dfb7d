"""One data-parallel SGD step written twice, with jax.jit + shardings and with jax.shard_map."""
import math
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
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too

kx, k1, k2 = jax.random.split(jax.random.key(0), 3)
x = jax.random.normal(kx, (256, 32))  # the global batch: 256 examples
y = jnp.sin(x.sum(axis=1, keepdims=True))
params = {"w1": jax.random.normal(k1, (32, 64)) / 32**0.5, "b1": jnp.zeros(64),
          "w2": jax.random.normal(k2, (64, 1)) / 8, "b2": jnp.zeros(1)}


def loss_fn(p, x, y):
    return jnp.mean((jnp.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"] - y) ** 2)


def sgd(p, g, lr=0.1):
    return jax.tree.map(lambda a, b: a - lr * b, p, g)


def diff(a, b):  # the largest difference between two sets of parameters
    return max(float(jnp.abs(u - v).max()) for u, v in zip(jax.tree.leaves(a), jax.tree.leaves(b)))


@jax.jit  # way 1: code for the whole batch; the shardings of the inputs decide the rest
def step_jit(p, x, y):
    return sgd(p, jax.grad(loss_fn)(p, x, y))


def per_device(p, x, y):  # way 2: code for one device's examples (32 on 8 devices)
    global_loss = lambda p: jax.lax.pmean(loss_fn(p, x, y), "data")  # mean over all 256
    return sgd(p, jax.grad(global_loss)(p))  # JAX adds up the devices' parts: an all-reduce


mesh = jax.make_mesh((len(devices),), ("data",), devices=devices)
step_smap = jax.jit(jax.shard_map(per_device, mesh=mesh, in_specs=(P(), P("data"), P("data")),
                                  out_specs=P()))
p_rep = jax.device_put(params, NamedSharding(mesh, P()))  # a full copy on every device
x_b, y_b = jax.device_put((x, y), NamedSharding(mesh, P("data")))  # 32 examples per device on 8 devices

HLO_OPS = "all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute"
n_params = sum(a.size for a in jax.tree.leaves(params))
in_jax = {}
for name, step in [("jit + shardings", step_jit), ("shard_map", step_smap)]:
    lowered = step.lower(p_rep, x_b, y_b)
    in_jax[name] = lowered.as_text().count("stablehlo.all_reduce")  # what JAX hands to XLA
    hlo = lowered.compile().as_text()  # what XLA compiled
    found = re.findall(rf" ({HLO_OPS})(?:-start)?\(", hlo)
    shapes = re.findall(r"f32\[([\d,]*)\]", re.search(r"= \((.*?)\) all-reduce", hlo).group(1))
    floats = sum(math.prod(int(n) for n in s.split(",") if n) for s in shapes)
    print(f"{name:16} all-reduces from JAX: {in_jax[name]}; compiled collectives: {found},"
          f" carrying {len(shapes)} arrays, {floats} floats")
    assert found == ["all-reduce"] and floats == n_params  # one sum of all the gradients
assert in_jax == {"jit + shardings": 0, "shard_map": 4}  # the partitioner adds it / one per array
print("parameters in the model:", n_params)

p1, p2, ref = p_rep, p_rep, params
for _ in range(10):
    p1, p2, ref = step_jit(p1, x_b, y_b), step_smap(p2, x_b, y_b), step_jit(ref, x, y)
d_smap, d_one = diff(p1, p2), diff(p1, ref)
print(f"after 10 steps: max |jit - shard_map| = {d_smap:.1e}, max |jit - one device| = {d_one:.1e}")
assert d_smap < 1e-6 and d_one < 1e-6  # float32 rounding: the partial sums are added in another order
assert all(a.sharding.is_fully_replicated for a in jax.tree.leaves((p1, p2)))

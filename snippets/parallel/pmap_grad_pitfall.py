"""Pitfall: a pmap body copied into shard_map unchanged gives gradients n times too large."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

n = len(devices)
x = jax.random.normal(jax.random.key(0), (32, 3))
y = x @ jnp.array([1.0, -2.0, 0.5])
params = {"w": jnp.zeros(3), "b": jnp.zeros(())}


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def pmap_body(params, x, y):  # grad of the local loss, then pmean: right under pmap
    return jax.lax.pmean(jax.grad(loss_fn)(params, x, y), "batch")


def shard_map_body(params, x, y):  # pmean the loss, then grad
    return jax.grad(lambda p: jax.lax.pmean(loss_fn(p, x, y), "batch"))(params)


mesh = jax.make_mesh((n,), ("batch",), devices=devices)
args = (jax.device_put(params, NamedSharding(mesh, P())),
        *jax.device_put((x, y), NamedSharding(mesh, P("batch"))))
specs = dict(mesh=mesh, in_specs=(P(), P("batch"), P("batch")), out_specs=P())
true_w = jax.grad(loss_fn)(*jax.device_put((params, x, y), devices[0]))["w"]  # one device, whole batch

for name, body, check_vma in [("pmap body", pmap_body, True),
                              ("pmean on the loss", shard_map_body, True),
                              ("pmap body, check_vma=False", pmap_body, False)]:
    grads = jax.jit(jax.shard_map(body, check_vma=check_vma, **specs))(*args)
    ratio = np.asarray(grads["w"]) / np.asarray(true_w)  # in NumPy: they live on different devices
    print(f"{name:27} gradient / true gradient = {ratio}")
    expected = n if (body is pmap_body and check_vma) else 1.0
    assert np.allclose(ratio, expected, rtol=1e-5)

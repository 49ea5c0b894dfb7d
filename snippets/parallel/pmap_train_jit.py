"""After (2): jax.jit on arrays placed with NamedSharding; no collective in the code, the compiler adds it."""
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
kx, kn = jax.random.split(jax.random.key(0))
x = jax.random.normal(kx, (32, 3))  # one global batch of 32 examples
y = x @ jnp.array([1.0, -2.0, 0.5]) + 0.3 + 0.01 * jax.random.normal(kn, (32,))
params = {"w": jnp.zeros(3), "b": jnp.zeros(())}


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def sgd(params, grads, lr=0.1):
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


@jax.jit
def train_step(params, x, y):  # written for the whole batch, exactly as for one device
    return sgd(params, jax.grad(loss_fn)(params, x, y))


mesh = jax.make_mesh((n,), ("batch",), devices=devices)
replicated, batch = NamedSharding(mesh, P()), NamedSharding(mesh, P("batch"))
new = jax.device_put(params, replicated)
xs, ys = jax.device_put(x, batch), jax.device_put(y, batch)  # only the placement changes
ref = jax.device_put(params, devices[0])  # the one-device run, on the same kind of device
for _ in range(5):
    new, ref = train_step(new, xs, ys), train_step(ref, x, y)  # sharded run, one-device run

# The two runs live on different devices, so compare them in NumPy.
diff = max(float(np.abs(d).max()) for d in jax.tree.leaves(jax.tree.map(np.subtract, new, ref)))
print("w:", np.round(np.asarray(new["w"]), 4), "b:", np.round(float(new["b"]), 4))
print("replicated on every device:", new["w"].sharding.is_fully_replicated)
print("max |jit - one device| =", diff, "(tolerance 1e-6)")
assert diff < 1e-6 and new["w"].sharding.is_fully_replicated
hlo = train_step.lower(new, xs, ys).compile().as_text()  # the program XLA built for the n devices
print("compiler inserted an all-reduce:", "all-reduce" in hlo)
assert "all-reduce" in hlo

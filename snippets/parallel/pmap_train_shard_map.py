"""After (1): the same step with jax.shard_map; pmean the loss, and grad returns averaged gradients."""
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


reference_step = jax.jit(lambda p, x, y: sgd(p, jax.grad(loss_fn)(p, x, y)))  # one device


def train_step(params, x, y):  # runs on every device, on that device's block of examples
    def global_loss(params):
        return jax.lax.pmean(loss_fn(params, x, y), axis_name="batch")  # mean over all 32

    return sgd(params, jax.grad(global_loss)(params))  # gradients already averaged


mesh = jax.make_mesh((n,), ("batch",), devices=devices)  # the mesh axis name replaces pmap's axis_name
step = jax.jit(jax.shard_map(train_step, mesh=mesh,
                             in_specs=(P(), P("batch"), P("batch")), out_specs=P()))
replicated, batch = NamedSharding(mesh, P()), NamedSharding(mesh, P("batch"))
new = jax.device_put(params, replicated)  # what device_put_replicated used to do
xs, ys = jax.device_put(x, batch), jax.device_put(y, batch)  # no reshape: the global batch, split
assert xs.sharding.shard_shape(xs.shape) == (32 // n, 3)  # each device sees 4 rows on 8 devices
try:  # on make_mesh's Explicit axes, shard_map wants inputs already placed as in_specs says
    step(new, x, y)
except ValueError as err:
    print("unplaced batch -> ValueError:", str(err).split(" for arg")[0])
else:
    raise AssertionError("an unplaced batch should not match in_specs=P('batch')")
ref = jax.device_put(params, devices[0])  # the one-device run, on the same kind of device
for _ in range(5):
    new, ref = step(new, xs, ys), reference_step(ref, x, y)

# The two runs live on different devices, so compare them in NumPy.
diff = max(float(np.abs(d).max()) for d in jax.tree.leaves(jax.tree.map(np.subtract, new, ref)))
print("w:", np.round(np.asarray(new["w"]), 4), "b:", np.round(float(new["b"]), 4))
print("replicated on every device:", new["w"].sharding.is_fully_replicated)
print("max |shard_map - one device| =", diff, "(tolerance 1e-6)")
assert diff < 1e-6 and new["w"].sharding.is_fully_replicated

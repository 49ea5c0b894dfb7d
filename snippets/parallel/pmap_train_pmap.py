"""Before: a data-parallel SGD step with jax.pmap; each device takes its own examples, pmean averages the gradients."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np

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


def train_step(params, x, y):  # runs on every device, on that device's examples
    grads = jax.grad(loss_fn)(params, x, y)
    grads = jax.lax.pmean(grads, axis_name="batch")  # all-reduce: the mean of the n gradients
    return sgd(params, grads)


step = jax.pmap(train_step, axis_name="batch", in_axes=(None, 0, 0), out_axes=None,
                devices=devices)
xs, ys = x.reshape(n, -1, 3), y.reshape(n, -1)  # add the leading device axis: (8, 4, 3) on 8 devices
assert xs.shape == (n, 32 // n, 3)  # 4 examples per device on 8 devices
new, ref = params, jax.device_put(params, devices[0])  # the one-device run, on the same kind of device
for _ in range(5):
    new, ref = step(new, xs, ys), reference_step(ref, x, y)

# The two runs live on different devices, so compare them in NumPy.
diff = max(float(np.abs(d).max()) for d in jax.tree.leaves(jax.tree.map(np.subtract, new, ref)))
print("w:", np.round(np.asarray(new["w"]), 4), "b:", np.round(float(new["b"]), 4))
print("replicated on every device:", new["w"].sharding.is_fully_replicated)
print("max |pmap - one device| =", diff, "(tolerance 1e-6)")
assert diff < 1e-6 and new["w"].sharding.is_fully_replicated

"""nnx.BatchNorm under a sharded batch uses the whole batch's statistics, like SyncBatchNorm."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import numpy as np
import jax
import jax.numpy as jnp
import optax
from flax import nnx
from jax import P
from jax.sharding import AxisType, NamedSharding
from sklearn.datasets import load_digits

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
backend, count = jax.default_backend(), jax.device_count()
if devices[0].platform != "cpu":
    print(f"using {len(devices)} of the {count} {devices[0].platform} devices")
else:  # say why, so that a reader with one GPU or TPU chip is not surprised
    why = "no accelerator" if backend == "cpu" else f"only one {backend} device"
    print(f"{why}: using {len(devices)} emulated CPU devices")
jax.config.update("jax_default_device", devices[0])  # the one-device reference runs there
jax.config.update("jax_default_matmul_precision", "highest")


class CNN(nnx.Module):  # a tiny digits CNN: conv, BatchNorm, ReLU, average, linear
    def __init__(self, *, rngs):
        self.conv = nnx.Conv(1, 16, kernel_size=(3, 3), rngs=rngs)
        self.bn = nnx.BatchNorm(16, momentum=0.9, rngs=rngs)  # PyTorch's momentum=0.1
        self.head = nnx.Linear(16, 10, rngs=rngs)

    def __call__(self, x):
        return self.head(nnx.relu(self.bn(self.conv(x))).mean(axis=(1, 2)))


@nnx.jit
def train_step(model, optimizer, x, y):  # training mode: BatchNorm uses and records batch statistics
    loss_fn = lambda m: optax.softmax_cross_entropy_with_integer_labels(m(x), y).mean()
    optimizer.update(model, nnx.grad(loss_fn)(model))


digits = load_digits()
x = jnp.asarray(digits.images[:64, :, :, None] / 16, jnp.float32)  # 64 images, 8 x 8, NHWC
y = jnp.asarray(digits.target[:64])


def one_step(x, y):
    model = CNN(rngs=nnx.Rngs(0))
    features = model.conv(x)  # what BatchNorm sees, before the step changes the conv
    train_step(model, nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param), x, y)
    return model.bn.mean[...], model.bn.var[...], features


mean_1, var_1, features = one_step(x, y)  # one device, whole batch
mesh = jax.make_mesh((len(devices),), ("data",), axis_types=(AxisType.Auto,), devices=devices)
x_n, y_n = jax.device_put((x, y), NamedSharding(mesh, P("data")))  # the 64 images split: 8 on each of 8 devices
mean_n, var_n, _ = one_step(x_n, y_n)
print("batch on each device:", x_n.addressable_shards[0].data.shape)

# What a per-replica BatchNorm (DDP without SyncBatchNorm) sees: one shard of the batch per device.
shard_means = features.reshape(len(devices), -1, features.shape[-1]).mean(axis=1)  # (shards, 16 channels)
print("running mean, channels 0-3")
print("  sharded batch  ", np.round(mean_n[:4], 5))
print("  one device     ", np.round(mean_1[:4], 5))
print("  shard 0 only   ", np.round(0.1 * shard_means[0, :4], 5))
gap = float(jnp.max(jnp.abs(0.1 * shard_means[0] / mean_n - 1)))
print(f"shard 0 differs from the sharded run by up to {gap:.1%} of a channel's running mean")

assert jnp.allclose(mean_n, mean_1, atol=1e-6) and jnp.allclose(var_n, var_1, atol=1e-6)
assert jnp.allclose(mean_1, 0.1 * features.mean(axis=(0, 1, 2)), atol=1e-6)  # whole-batch statistics
assert jnp.allclose(var_1, 0.9 + 0.1 * features.var(axis=(0, 1, 2)), atol=1e-6)
assert gap > 0.01  # not what one replica would have recorded

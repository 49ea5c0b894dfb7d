"""nnx.bridge.to_linen: use an NNX block inside a Linen model and check it against the NNX call."""
import jax
import jax.numpy as jnp
from flax import linen as nn
from flax import nnx


class ConvBN(nnx.Module):  # new NNX code that an old Linen model should use
    def __init__(self, din, dout, *, use_running_average=False, rngs: nnx.Rngs):
        self.conv = nnx.Conv(din, dout, kernel_size=(3, 3), rngs=rngs)
        self.bn = nnx.BatchNorm(dout, use_running_average=use_running_average, rngs=rngs)

    def __call__(self, x):
        return nnx.relu(self.bn(self.conv(x)))


class HybridCNN(nn.Module):  # a Linen model with the NNX block inside
    @nn.compact
    def __call__(self, x, train: bool):
        # to_linen passes its arguments to ConvBN(...) each time the model runs.
        x = nnx.bridge.to_linen(ConvBN, 1, 16, use_running_average=not train)(x)
        x = nn.max_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = nn.Dropout(rate=0.5, deterministic=not train)(x.reshape(x.shape[0], -1))
        return nn.Dense(features=10)(x)


x = jax.random.uniform(jax.random.key(1), (4, 8, 8, 1))
v = HybridCNN().init(jax.random.key(0), x, train=False)
print("params:     ", {k: sorted(t) for k, t in v["params"].items()})
print("batch_stats:", {k: sorted(t) for k, t in v["batch_stats"].items()})
assert set(v["batch_stats"]["ToLinen_0"]["bn"]) == {"mean", "var"}

# The same block called directly in NNX, with the weights Linen created for it.
block = ConvBN(1, 16, use_running_average=True, rngs=nnx.Rngs(0))
sub = {**v["params"]["ToLinen_0"]}
sub["bn"] = {**sub["bn"], **v["batch_stats"]["ToLinen_0"]["bn"]}
state = nnx.state(block, (nnx.Param, nnx.BatchStat))
nnx.replace_by_pure_dict(state, sub)
nnx.update(block, state)
linen_block = nnx.bridge.to_linen(ConvBN, 1, 16, use_running_average=True)
y_linen = linen_block.apply({"params": v["params"]["ToLinen_0"],
                             "batch_stats": v["batch_stats"]["ToLinen_0"]}, x)
print(f"eval: max |to_linen - NNX call| = {jnp.max(jnp.abs(y_linen - block(x))):.1e} (asserted == 0)")
assert jnp.array_equal(y_linen, block(x))

# Training the hybrid: the NNX BatchStat comes back in Linen's mutable batch_stats.
_, updates = HybridCNN().apply(v, x, train=True, mutable=["batch_stats"],
                               rngs={"dropout": jax.random.key(2)})
block.train()
block(x)  # NNX updates its running mean in place
d = jnp.max(jnp.abs(updates["batch_stats"]["ToLinen_0"]["bn"]["mean"] - block.bn.mean[...]))
print(f"train: running mean max |Linen updates - NNX| = {d:.1e} (asserted < 1e-6)")
assert d < 1e-6 and not jnp.allclose(block.bn.mean[...], sub["bn"]["mean"])

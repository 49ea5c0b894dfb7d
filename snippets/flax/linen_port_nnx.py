"""The same CNN in Linen and NNX: copy the Linen variables into NNX and get the same outputs."""
import jax
import jax.numpy as jnp
from flax import linen as nn
from flax import nnx


class LinenCNN(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Conv(features=16, kernel_size=(3, 3))(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.max_pool(nn.relu(x), window_shape=(2, 2), strides=(2, 2))
        x = nn.Dropout(rate=0.5, deterministic=not train)(x.reshape(x.shape[0], -1))
        return nn.Dense(features=10)(x)


class NNXCNN(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):  # layers built eagerly, input sizes spelled out
        self.conv = nnx.Conv(1, 16, kernel_size=(3, 3), rngs=rngs)
        self.bn = nnx.BatchNorm(16, rngs=rngs)
        self.dropout = nnx.Dropout(0.5, rngs=rngs)  # keeps its own "dropout" stream
        self.dense = nnx.Linear(4 * 4 * 16, 10, rngs=rngs)

    def __call__(self, x):  # no train argument: the mode is an attribute
        x = nnx.max_pool(nnx.relu(self.bn(self.conv(x))), (2, 2), strides=(2, 2))
        return self.dense(self.dropout(x.reshape(x.shape[0], -1)))


x = jax.random.uniform(jax.random.key(1), (4, 8, 8, 1))
v = LinenCNN().init(jax.random.key(0), x, train=False)
p, bs = v["params"], v["batch_stats"]
model = NNXCNN(nnx.Rngs(params=0, dropout=1))

# Same names for the leaves; only the module names differ.
pure = {"conv": p["Conv_0"], "dense": p["Dense_0"], "bn": {**p["BatchNorm_0"], **bs["BatchNorm_0"]}}
state = nnx.state(model, (nnx.Param, nnx.BatchStat))
nnx.replace_by_pure_dict(state, pure)
nnx.update(model, state)
print({k: type(getattr(model.bn, k)).__name__ for k in ("scale", "bias", "mean", "var")})

model.eval()  # use_running_average=True, deterministic=True
diff = jnp.max(jnp.abs(model(x) - LinenCNN().apply(v, x, train=False)))
print(f"eval: max |NNX - Linen| = {diff:.1e} (asserted < 1e-6)")
assert diff < 1e-6

model.train()  # the BatchStat variables change in place during the call
_, updates = LinenCNN().apply(v, x, train=True, mutable=["batch_stats"],
                              rngs={"dropout": jax.random.key(2)})
out1 = model(x)
d = jnp.max(jnp.abs(model.bn.mean[...] - updates["batch_stats"]["BatchNorm_0"]["mean"]))
print(f"train: running mean after one call, max |NNX - Linen| = {d:.1e} (asserted < 1e-6)")
assert d < 1e-6 and not jnp.allclose(model.bn.mean[...], bs["BatchNorm_0"]["mean"])
# The Rngs object advances by itself, so a second call draws a new dropout mask.
assert not jnp.allclose(out1, model(x))

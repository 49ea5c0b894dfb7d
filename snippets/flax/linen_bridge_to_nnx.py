"""nnx.bridge.ToNNX: run a Linen module as an NNX module and check it against model.apply."""
import jax
import jax.numpy as jnp
from flax import linen as nn
from flax import nnx


class LinenCNN(nn.Module):  # existing Linen code, unchanged
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Conv(features=16, kernel_size=(3, 3))(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.max_pool(nn.relu(x), window_shape=(2, 2), strides=(2, 2))
        x = nn.Dropout(rate=0.5, deterministic=not train)(x.reshape(x.shape[0], -1))
        return nn.Dense(features=10)(x)


x = jax.random.uniform(jax.random.key(1), (4, 8, 8, 1))
model = nnx.bridge.ToNNX(LinenCNN(), rngs=nnx.Rngs(params=0, dropout=1))
nnx.bridge.lazy_init(model, x, train=False)  # like init: a sample input creates the variables
assert isinstance(model, nnx.Module)

# The "params" collection became nnx.Param variables, "batch_stats" became nnx.BatchStat.
variables = {"params": nnx.to_pure_dict(nnx.state(model, nnx.Param)),
             "batch_stats": nnx.to_pure_dict(nnx.state(model, nnx.BatchStat))}
for col, tree in variables.items():
    print(f"{col:11s}", {name: sorted(leaves) for name, leaves in tree.items()})
reference = LinenCNN().init(jax.random.key(0), x, train=False)
assert jax.tree.structure(variables) == jax.tree.structure(reference)

# Eval: the wrapper computes exactly what apply computes with the same variables.
y_nnx = model(x, train=False)
y_linen = LinenCNN().apply(variables, x, train=False)
print(f"eval: max |ToNNX - apply| = {jnp.max(jnp.abs(y_nnx - y_linen)):.1e} (asserted == 0)")
assert jnp.array_equal(y_nnx, y_linen)

# Train: pass mutable as in apply; the wrapper stores the new batch_stats in place.
_, updates = LinenCNN().apply(variables, x, train=True, mutable=["batch_stats"],
                              rngs={"dropout": jax.random.key(2)})
out = model(x, train=True, mutable=["batch_stats"])  # dropout key from the Rngs above
mean = model.BatchNorm_0["mean"][...]
d = jnp.max(jnp.abs(mean - updates["batch_stats"]["BatchNorm_0"]["mean"]))
print(f"train: output {out.shape}, running mean max |ToNNX - apply| = {d:.1e} (asserted < 1e-6)")
assert d < 1e-6 and not jnp.allclose(mean, variables["batch_stats"]["BatchNorm_0"]["mean"])

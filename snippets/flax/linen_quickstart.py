"""A small Linen CNN: init builds the variables from a sample input, apply runs the model."""
import jax
import jax.numpy as jnp
from flax import linen as nn


class CNN(nn.Module):
    num_classes: int = 10  # hyperparameters are dataclass fields

    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Conv(features=16, kernel_size=(3, 3))(x)  # input channels come from x
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.max_pool(nn.relu(x), window_shape=(2, 2), strides=(2, 2))
        x = x.reshape(x.shape[0], -1)
        x = nn.Dropout(rate=0.5, deterministic=not train)(x)
        return nn.Dense(features=self.num_classes)(x)


model = CNN()
x = jnp.ones((4, 8, 8, 1))  # channels last: (batch, height, width, channels)
variables = model.init(jax.random.key(0), x, train=False)  # a dict, not the model
logits = model.apply(variables, x, train=False)

for path, leaf in jax.tree_util.tree_leaves_with_path(variables):
    print(f"{jax.tree_util.keystr(path, simple=True, separator='/'):28s} {leaf.shape}")
print("logits:", logits.shape)

assert set(variables) == {"params", "batch_stats"}
assert variables["params"]["Conv_0"]["kernel"].shape == (3, 3, 1, 16)  # (kh, kw, in, out)
assert variables["params"]["Dense_0"]["kernel"].shape == (4 * 4 * 16, 10)  # (in, out)
assert logits.shape == (4, 10)

"""setup and @nn.compact define the same Linen model; only the parameter names differ."""
import jax
import jax.numpy as jnp
from flax import linen as nn


class CompactMLP(nn.Module):
    @nn.compact
    def __call__(self, x):  # layers are declared where they are used
        x = nn.relu(nn.Dense(8)(x))
        return nn.Dense(2)(x)


class SetupMLP(nn.Module):
    def setup(self):  # layers declared up front, like torch's __init__
        self.hidden = nn.Dense(8)
        self.out = nn.Dense(2)

    def __call__(self, x):
        return self.out(nn.relu(self.hidden(x)))


x = jnp.ones((2, 3))
p_compact = CompactMLP().init(jax.random.key(0), x)["params"]
p_setup = SetupMLP().init(jax.random.key(0), x)["params"]
print("compact names:", sorted(p_compact))  # automatic: class name + counter
print("setup names:  ", sorted(p_setup))  # the attribute names

# Same layers, same shapes: rename the keys and the other module computes the same output.
renamed = {"hidden": p_compact["Dense_0"], "out": p_compact["Dense_1"]}
assert jax.tree.map(jnp.shape, renamed) == jax.tree.map(jnp.shape, p_setup)
y_compact = CompactMLP().apply({"params": p_compact}, x)
y_setup = SetupMLP().apply({"params": renamed}, x)
print("outputs equal:", bool(jnp.array_equal(y_compact, y_setup)))
assert jnp.array_equal(y_compact, y_setup)

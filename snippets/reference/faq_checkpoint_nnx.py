"""Flax NNX: save a model's state as a plain dict, load it into a freshly built model."""
import jax
import jax.numpy as jnp
from flax import nnx, serialization


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(4, 8, rngs=rngs)
        self.l2 = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


trained = MLP(nnx.Rngs(0))
# Like model.state_dict(): nested names -> arrays, as a plain dict.
pure = nnx.to_pure_dict(nnx.state(trained))
print(jax.tree.map(jnp.shape, pure))
data = serialization.to_bytes(pure)  # bytes you can write to a file

# Like model.load_state_dict(...): build the model, then overwrite its state.
fresh = MLP(nnx.Rngs(1))  # different initial weights
state = nnx.state(fresh)
nnx.replace_by_pure_dict(state, serialization.from_bytes(nnx.to_pure_dict(state), data))
nnx.update(fresh, state)

x = jnp.ones((2, 4))
print("outputs equal after loading:", bool(jnp.array_equal(trained(x), fresh(x))))
assert jnp.array_equal(trained(x), fresh(x))
assert not jnp.array_equal(trained(x), MLP(nnx.Rngs(1))(x))  # and it was not equal before

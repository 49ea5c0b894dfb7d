"""The same two-layer MLP in plain JAX (a dict, init, apply) and in Flax NNX, from the same weights."""
import jax
import jax.numpy as jnp
from flax import nnx


# Plain JAX: the parameters are a nested dict, and two functions know its layout.
def dense(key, din, dout):
    return {"kernel": jax.random.normal(key, (din, dout)) / jnp.sqrt(din), "bias": jnp.zeros(dout)}


def init(key):
    k1, k2 = jax.random.split(key)
    return {"l1": dense(k1, 3, 4), "l2": dense(k2, 4, 2)}


def apply(params, x):
    h = jnp.tanh(x @ params["l1"]["kernel"] + params["l1"]["bias"])
    return h @ params["l2"]["kernel"] + params["l2"]["bias"]


# Flax NNX: the layers create and hold their own parameters.
class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.l1 = nnx.Linear(3, 4, rngs=rngs)
        self.l2 = nnx.Linear(4, 2, rngs=rngs)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


params = init(jax.random.key(0))
model = MLP(nnx.Rngs(0))
print("plain JAX:", jax.tree.map(jnp.shape, params))
print("Flax NNX: ", jax.tree.map(jnp.shape, nnx.to_pure_dict(nnx.state(model))))

# The model's state has the same tree as the dict, so the dict's weights can be loaded into it.
state = nnx.state(model)
assert jax.tree.structure(nnx.to_pure_dict(state)) == jax.tree.structure(params)
nnx.replace_by_pure_dict(state, params)
nnx.update(model, state)

x = jnp.linspace(-1.0, 1.0, 15).reshape(5, 3)
y_plain, y_nnx = apply(params, x), model(x)
same = bool(jnp.array_equal(y_plain, y_nnx))  # bit for bit: the same operations on the same weights
print(f"output {y_nnx.shape}, max |plain - nnx| = {float(jnp.max(jnp.abs(y_plain - y_nnx))):.1e},"
      f" bitwise equal: {same}")
assert same
assert not jnp.allclose(MLP(nnx.Rngs(0))(x), model(x))  # a fresh model has other weights

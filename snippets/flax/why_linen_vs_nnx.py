"""The same two-layer model in Linen (init/apply, separate params) and NNX (an object that holds them)."""
import jax
import jax.numpy as jnp
from flax import errors
from flax import linen as nn
from flax import nnx


class LinenMLP(nn.Module):  # a description: it holds no arrays
    @nn.compact
    def __call__(self, x):
        x = jnp.tanh(nn.Dense(4, name="l1")(x))  # sizes of the inputs come from x
        return nn.Dense(2, name="l2")(x)


class NNXMLP(nnx.Module):  # an object: its layers create their arrays now
    def __init__(self, rngs: nnx.Rngs):
        self.l1 = nnx.Linear(3, 4, rngs=rngs)
        self.l2 = nnx.Linear(4, 2, rngs=rngs)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


x = jnp.linspace(-1.0, 1.0, 15).reshape(5, 3)
linen_model = LinenMLP()
variables = linen_model.init(jax.random.key(0), x)  # needs a sample input
nnx_model = NNXMLP(nnx.Rngs(0))
print("Linen variables:", jax.tree.map(jnp.shape, variables))
print("NNX state:      ", jax.tree.map(jnp.shape, nnx.to_pure_dict(nnx.state(nnx_model))))
try:  # the Linen object has no weights to run with
    linen_model(x)
except errors.CallCompactUnboundModuleError as err:
    print(f"linen_model(x): {type(err).__name__}: {str(err).splitlines()[0]}")
else:
    raise AssertionError("a Linen module called outside apply should fail")

# Same tree under "params": load Linen's weights into the NNX object, then compare outputs.
state = nnx.state(nnx_model)
nnx.replace_by_pure_dict(state, variables["params"])
nnx.update(nnx_model, state)
y_linen = linen_model.apply(variables, x)  # weights passed in on every call
y_nnx = nnx_model(x)  # weights read from the object
same = bool(jnp.array_equal(y_linen, y_nnx))  # bit for bit: the same operations on the same weights
print(f"max |linen - nnx| = {float(jnp.max(jnp.abs(y_linen - y_nnx))):.1e}, bitwise equal: {same}")
assert same


# Gradients: jax.grad of a function of the params dict, nnx.grad of a function of the model.
def loss(y):
    return jnp.mean(y ** 2)


g_linen = jax.grad(lambda p: loss(linen_model.apply({"params": p}, x)))(variables["params"])
g_nnx = nnx.grad(lambda m: loss(m(x)))(nnx_model)  # an nnx.State with the model's tree
assert isinstance(g_nnx, nnx.State)
equal = jax.tree.map(lambda a, b: bool(jnp.array_equal(a, b)), g_linen, nnx.to_pure_dict(g_nnx))
print("gradients bitwise equal:", all(jax.tree.leaves(equal)))
assert all(jax.tree.leaves(equal))

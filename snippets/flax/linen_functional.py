"""A Linen module holds no arrays: init traces it to create them, apply reads them back."""
import flax.errors
import jax
import jax.numpy as jnp
from flax import linen as nn


class MLP(nn.Module):
    hidden: int  # a dataclass field: the module only describes the layers

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(features=self.hidden)(x))  # in_features come from x
        return nn.Dense(features=2)(x)


model = MLP(hidden=8)
print(model)  # just the hyperparameters
error = None
try:
    model(jnp.ones((1, 3)))  # no variables are bound to it
except flax.errors.CallCompactUnboundModuleError as e:
    error = e
print(f"model(x) outside init/apply: {type(error).__name__}: {str(error).splitlines()[0]}")
assert type(error).__name__ == "CallCompactUnboundModuleError"

# init runs __call__ once on a sample input; the input's shape sets the kernel shapes.
for n_in in (3, 5):
    params = model.init(jax.random.key(0), jnp.ones((1, n_in)))["params"]
    print(f"input width {n_in}: Dense_0 kernel {params['Dense_0']['kernel'].shape}, "
          f"params is a {type(params).__name__}")
    assert params["Dense_0"]["kernel"].shape == (n_in, 8) and type(params) is dict

# apply is a pure function of the variables: edit the dict and the output follows.
x = jnp.ones((2, 5))
edited = {**params, "Dense_1": {"kernel": jnp.zeros((8, 2)), "bias": jnp.array([1.0, -1.0])}}
out = model.apply({"params": edited}, x)
print("Dense_1 kernel set to 0 and bias to [1, -1]; output rows:", out.tolist())
assert jnp.array_equal(out, jnp.array([[1.0, -1.0], [1.0, -1.0]]))
assert not jnp.allclose(model.apply({"params": params}, x), out)  # params itself was not edited

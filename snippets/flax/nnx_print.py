"""List a model's variables compactly: a count per type, then one line per variable."""
import jax
import jax.numpy as jnp
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.body = nnx.Linear(3, 8, rngs=rngs)
        self.bn = nnx.BatchNorm(8, rngs=rngs)
        self.drop = nnx.Dropout(0.1, rngs=rngs)
        self.head = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        return self.head(self.drop(jax.nn.relu(self.bn(self.body(x)))))


model = MLP(nnx.Rngs(0))
text = repr(model)  # what print(model) shows
print(f"repr: {len(text.splitlines())} lines; the first one is")
print(text.splitlines()[0])

names = []
for path, variable in nnx.to_flat_state(nnx.state(model)):  # like named_parameters + buffers
    names.append(".".join(map(str, path)))
    print(f"  {names[-1]:15s} {type(variable).__name__:9s} {variable.shape}")
assert names == sorted(names) and names[0] == "bn.bias"  # sorted by path, not in __init__ order

n_params = sum(x.size for x in jax.tree.leaves(nnx.state(model, nnx.Param)))
print("trainable parameters:", n_params)
assert f"Param: {n_params} " in text.splitlines()[0]
assert len(text.splitlines()) > 50 and " at 0x" in text  # long, with memory addresses
assert n_params == (3 * 8 + 8) + (8 + 8) + (8 * 2 + 2)

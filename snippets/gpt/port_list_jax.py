"""Flax NNX: a plain list of layers raises; nnx.List, nnx.Dict or nnx.data register them."""
from flax import nnx


class Plain(nnx.Module):
    def __init__(self, rngs):
        self.h = [nnx.Linear(4, 4, rngs=rngs) for _ in range(2)]  # the literal translation


try:
    Plain(nnx.Rngs(0))
    raised = False
except ValueError as error:
    raised = True
    print("ValueError:", str(error).splitlines()[0])
assert raised  # Flax 0.12 refuses layers inside a plain list


class Listed(nnx.Module):
    def __init__(self, rngs):
        self.h = nnx.List([nnx.Linear(4, 4, rngs=rngs) for _ in range(2)])  # nn.ModuleList
        self.heads = nnx.Dict({"lm": nnx.Linear(4, 2, rngs=rngs)})  # nn.ModuleDict
        self.extra = nnx.data([nnx.Linear(4, 4, rngs=rngs)])  # a plain list, marked as data
        self.sizes = [4, 4]  # no arrays inside: a static attribute, as before
        self.names = nnx.static(("lm",))  # marked static explicitly


model = Listed(nnx.Rngs(0))
paths = [path for path, _ in nnx.to_flat_state(nnx.state(model, nnx.Param))]
for path in paths:
    print(path)
assert ("h", 0, "kernel") in paths and ("heads", "lm", "kernel") in paths
assert ("extra", 0, "kernel") in paths
assert not any(path[0] in ("sizes", "names") for path in paths)  # static: not in the state

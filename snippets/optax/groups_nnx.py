"""optax.partition with nnx.Optimizer: init sees Variables, update sees arrays, so labels must not depend on the difference."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(4, 8, rngs=rngs)
        self.norm = nnx.LayerNorm(8, rngs=rngs)
        self.out = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.out(jnp.tanh(self.norm(self.hidden(x))))


def label_fn_for(name_of):  # the rule of the first section: no decay on biases and on the norm
    def label(path, _):
        name = name_of(path)
        return "no_decay" if name.endswith("bias") or name.startswith("norm") else "decay"
    return lambda tree: jax.tree_util.tree_map_with_path(label, tree)


plain = lambda path: jax.tree_util.keystr(path, simple=True, separator="/")
fixed = lambda path: plain(path).removesuffix("/value")  # drop the key that init's Variables add


def groups(label_fn):
    return optax.partition({"decay": optax.adamw(0.05, weight_decay=0.1),
                            "no_decay": optax.adamw(0.05, weight_decay=0.0)}, label_fn)


x = jax.random.normal(jax.random.key(1), (16, 4))
loss_fn = lambda model: jnp.mean((model(x) - 1.0) ** 2)
model = Net(nnx.Rngs(0))
at_init = nnx.state(model, nnx.Param)  # what nnx.Optimizer passes to tx.init
at_update = nnx.as_pure(at_init)  # what it passes to tx.update
print("init sees:  ", plain(jax.tree_util.tree_leaves_with_path(at_init)[0][0]))
print("update sees:", plain(jax.tree_util.tree_leaves_with_path(at_update)[0][0]))
try:
    nnx.Optimizer(model, groups(label_fn_for(plain)), wrt=nnx.Param).update(model, nnx.grad(loss_fn)(model))
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0])
else:
    raise AssertionError("expected a ValueError")
label_fn = label_fn_for(fixed)
assert jax.tree.leaves(label_fn(at_init)) == jax.tree.leaves(label_fn(at_update))
assert jax.tree.leaves(label_fn(at_update)).count("decay") == 2  # the two kernels


@nnx.jit
def step(model, optimizer):
    optimizer.update(model, nnx.grad(loss_fn)(model))


# The fixed label function, and adamw's mask= with a rule that reads no names: decay where ndim > 1.
results = []
for tx in (groups(label_fn), optax.adamw(0.05, weight_decay=0.1, mask=lambda p: jax.tree.map(lambda a: a.ndim > 1, p))):
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)
    for _ in range(10):
        step(model, optimizer)
    results.append(nnx.as_pure(nnx.state(model, nnx.Param)))
diff = max(jax.tree.leaves(jax.tree.map(lambda a, b: float(jnp.abs(a - b).max()), *results)))
print(f"loss after 10 steps: {loss_fn(model):.4f}; max |partition - adamw(mask=...)|: {diff:.1e} (tolerance 1e-6)")
assert diff < 1e-6

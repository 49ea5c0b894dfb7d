"""Python function calls per train step: nnx.jit walks the model and optimizer on every call."""
import sys
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, depth, width, rngs):
        sizes = [16] + [width] * depth
        self.hidden = nnx.List([nnx.Linear(a, b, rngs=rngs) for a, b in zip(sizes, sizes[1:])])
        self.out = nnx.Linear(width, 1, rngs=rngs)

    def __call__(self, x):
        for layer in self.hidden:
            x = jax.nn.relu(layer(x))
        return self.out(x)


def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


def python_calls(step):  # Python functions entered during one call, after a warm-up call
    step()
    count = 0

    def profiler(frame, event, arg):
        nonlocal count
        count += event == "call"

    sys.setprofile(profiler)
    try:
        step()
    finally:
        sys.setprofile(None)
    return count


x, y = jnp.ones((32, 16)), jnp.ones((32, 1))
names, widths = ["nnx.jit", "graph=False", "cached", "jax.jit"], [9, 12, 8, 8]
print(f"{'depth':>5}{'width':>6}{'Variables':>10}" + "".join(f"{n:>{w}}" for n, w in zip(names, widths)))
counts = {}
for depth, width in [(2, 32), (2, 512), (5, 32)]:
    model = MLP(depth, width, nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    jit, tree = nnx.jit(train_step), nnx.jit(train_step, graph=False)
    cached = nnx.cached_partial(jit, model, optimizer)
    graphdef, state = nnx.split((model, optimizer))

    @jax.jit
    def jax_step(state, x, y):
        model, optimizer = nnx.merge(graphdef, state)
        return train_step(model, optimizer, x, y), nnx.state((model, optimizer))

    row = [python_calls(lambda: jit(model, optimizer, x, y)),
           python_calls(lambda: tree(model, optimizer, x, y)),
           python_calls(lambda: cached(x, y)),
           python_calls(lambda: jax_step(state, x, y))]
    counts[depth, width] = row
    n_vars = len(jax.tree.leaves(state))
    print(f"{depth:>5}{width:>6}{n_vars:>10}" + "".join(f"{c:>{w}}" for c, w in zip(row, widths)))

assert counts[2, 32] == counts[2, 512]  # the same Python work whatever the size of the arrays
assert all(a < b for a, b in zip(counts[2, 32], counts[5, 32]))  # more Variables, more work
for jit_calls, tree_calls, cached_calls, jax_calls in counts.values():
    assert jit_calls > 5 * jax_calls  # nnx.jit: over 5x the calls of jax.jit on the split state
    assert jax_calls < min(tree_calls, cached_calls) and max(tree_calls, cached_calls) < jit_calls

"""Per-example gradients of an NNX model: nnx.vmap(nnx.grad(...)) with the model broadcast (None)."""
import jax
import jax.numpy as jnp
from flax import nnx

# Exact float32 products on every backend, for the comparison: at a TPU's default (one bfloat16 pass)
# the batch gradient rounds each cotangent after the mean's division by 6, the per-example one before.
jax.config.update("jax_default_matmul_precision", "highest")


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(3, 8, rngs=rngs)
        self.l2 = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


def loss_fn(model, x, y):  # written for ONE example: x (3,), y (1,)
    return jnp.sum((model(x) - y) ** 2)


model = MLP(nnx.Rngs(0))
xs = jax.random.normal(jax.random.key(1), (6, 3))
ys = jax.random.normal(jax.random.key(2), (6, 1))

# None: every example sees the same model; 0: split the data along its first axis.
per_example = nnx.vmap(nnx.grad(loss_fn), in_axes=(None, 0, 0))(model, xs, ys)
shapes = jax.tree.map(jnp.shape, nnx.to_pure_dict(per_example))
print("per-example grads:", shapes)
assert shapes["l1"]["kernel"] == (6, 3, 8)  # one gradient per example, stacked in front

batch = nnx.grad(lambda m: jnp.mean(jnp.sum((m(xs) - ys) ** 2, axis=1)))(model)  # mean loss
mean = jax.tree.map(lambda g: g.mean(axis=0), per_example)
diff = max(jax.tree.leaves(jax.tree.map(lambda a, b: jnp.abs(a - b).max(), mean, batch)))
print(f"mean of per-example grads vs batch grad: max diff {diff:.1e} (asserted < 1e-6)")
assert diff < 1e-6

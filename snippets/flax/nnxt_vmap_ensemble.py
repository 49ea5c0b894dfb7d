"""An ensemble of four MLPs: created with nnx.vmap over split Rngs, run on one batch in one call."""
import jax
import jax.numpy as jnp
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(3, 8, rngs=rngs)
        self.l2 = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


@nnx.vmap(in_axes=0, out_axes=0)  # one member per key: every Variable gets a leading axis
def create_ensemble(rngs):
    return MLP(rngs)


@nnx.vmap(in_axes=(0, None))  # map over the members, share the batch
def predict(model, x):
    return model(x)


ensemble = create_ensemble(nnx.Rngs(0).split(4))  # an Rngs whose keys have shape (4,)
x = jax.random.normal(jax.random.key(1), (5, 3))
out = predict(ensemble, x)
print("l1 kernel:", ensemble.l1.kernel.shape, "| l1 bias:", ensemble.l1.bias.shape)
print("predictions:", out.shape, "(members, examples, outputs)")
assert ensemble.l1.kernel.shape == (4, 3, 8) and out.shape == (4, 5, 1)

# Each row is what that member alone predicts: slice every array of the state at index i.
graphdef, state = nnx.split(ensemble)
for i in range(4):
    member = nnx.merge(graphdef, jax.tree.map(lambda a: a[i], state))
    assert jnp.allclose(member(x), out[i], atol=1e-6)
kernels = ensemble.l1.kernel[...]
assert all(not jnp.allclose(kernels[0], kernels[i]) for i in range(1, 4))  # different init
print("each member matches its own call (atol 1e-6); all four initialisations differ")

"""nnx.Rngs: named key streams; a fixed seed gives the same weights and the same dropout masks."""
import jax
import jax.numpy as jnp
from flax import nnx

rngs = nnx.Rngs(params=0, dropout=1)
k0, k1 = rngs.params(), rngs.params()  # a new key on every call
print("two params keys equal:", bool(k0 == k1))
assert not bool(k0 == k1)
# Call i of a stream folds i into the stream's seed key.
assert bool(k0 == jax.random.fold_in(jax.random.key(0), 0))
assert bool(k1 == jax.random.fold_in(jax.random.key(0), 1))


class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)  # draws from rngs.params
        self.drop = nnx.Dropout(0.5, rngs=rngs)  # keeps a stream forked from rngs.dropout

    def __call__(self, x):
        return self.drop(self.linear(x))


x = jnp.ones((1, 4))
a, b = Net(nnx.Rngs(params=0, dropout=1)), Net(nnx.Rngs(params=0, dropout=1))
ya1, ya2, yb1 = a(x), a(x), b(x)
print("same seed, same kernel:", bool(jnp.array_equal(a.linear.kernel[...], b.linear.kernel[...])))
print("same seed, same first mask:", bool(jnp.array_equal(ya1, yb1)))
print("second call, new mask:", not bool(jnp.array_equal(ya1 == 0, ya2 == 0)))
print("RngCount in the state:", jax.tree.map(int, nnx.to_pure_dict(nnx.state(a, nnx.RngCount))))
assert jnp.array_equal(a.linear.kernel[...], b.linear.kernel[...]) and jnp.array_equal(ya1, yb1)
assert not jnp.array_equal(ya1 == 0, ya2 == 0)
assert int(a.drop.rngs.count[...]) == 2  # the module advanced its stream, in place
other = Net(nnx.Rngs(params=1, dropout=1))
assert not jnp.array_equal(a.linear.kernel[...], other.linear.kernel[...])

try:  # a stream that was not given, and no default seed to fall back to
    Net(nnx.Rngs(params=0))
except KeyError as err:
    print("KeyError:", err.args[0])
    assert "dropout" in err.args[0]
else:
    raise AssertionError("Dropout found a stream that was not given")
assert bool(nnx.Rngs(0).dropout() == nnx.Rngs(0).default())  # Rngs(0): one default stream

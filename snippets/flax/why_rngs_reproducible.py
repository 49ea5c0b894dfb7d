"""nnx.Rngs makes initial weights and dropout masks reproducible: same seed, same numbers."""
import jax
import jax.numpy as jnp
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(8, 8, rngs=rngs)  # draws from the "params" stream now
        self.dropout = nnx.Dropout(0.5, rngs=rngs)  # forks the "dropout" stream for later calls

    def __call__(self, x):
        return self.dropout(self.linear(x))


def run(rngs):
    """Initial kernel and the dropout masks of two calls, from a freshly built model."""
    model = Net(rngs)
    kernel = model.linear.kernel[...]
    masks = [model.dropout(jnp.ones(8)) != 0 for _ in range(2)]  # ones in: the mask comes out
    return kernel, masks


print("masks: x = kept, . = dropped; Rngs(seed) feeds every stream from one 'default' stream")
k_a, m_a = run(nnx.Rngs(0))
k_b, m_b = run(nnx.Rngs(0))
k_c, m_c = run(nnx.Rngs(1))
k_d, m_d = run(nnx.Rngs(params=0, dropout=1))  # two streams, seeded separately
for name, k, m in [("Rngs(0)", k_a, m_a), ("Rngs(0) again", k_b, m_b), ("Rngs(1)", k_c, m_c),
                   ("params=0, dropout=1", k_d, m_d)]:
    masks = " ".join("".join("x" if keep else "." for keep in mask.tolist()) for mask in m)
    print(f"{name:20s} kernel[0, :3] {k[0, :3]}  masks {masks}")

# Same seed: the same weights and the same masks, call after call.
assert jnp.array_equal(k_a, k_b) and all(jnp.array_equal(a, b) for a, b in zip(m_a, m_b))
# The stream advances: the second call draws another mask.
assert not jnp.array_equal(m_a[0], m_a[1])
# Another seed: other weights and other masks.
assert not jnp.allclose(k_a, k_c) and not jnp.array_equal(m_a[0], m_c[0])
# A separate dropout seed changes the masks and leaves the weights alone.
assert jnp.array_equal(k_a, k_d) and not jnp.array_equal(m_a[0], m_d[0])

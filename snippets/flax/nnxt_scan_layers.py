"""Six identical blocks: created at once with nnx.vmap, applied in order with nnx.scan."""
import jax
import jax.numpy as jnp
from flax import nnx


class Block(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(16, 16, rngs=rngs)

    def __call__(self, x):
        return jnp.tanh(self.linear(x))


@nnx.vmap(in_axes=0, out_axes=0)
def create_stack(rngs):
    return Block(rngs)


@nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)  # x is carried, the stack is scanned
def apply_stack(x, block):
    return block(x)


stack = create_stack(nnx.Rngs(0).split(6))
x = jax.random.normal(jax.random.key(1), (4, 16))
y = apply_stack(x, stack)
print("stacked kernel:", stack.linear.kernel.shape, "| output:", y.shape)
assert stack.linear.kernel.shape == (6, 16, 16) and y.shape == (4, 16)

# The same as a Python loop that applies block 0, then block 1, ... one at a time.
graphdef, state = nnx.split(stack)


def loop(state, x):
    for i in range(6):
        x = nnx.merge(graphdef, jax.tree.map(lambda a: a[i], state))(x)  # block i alone
    return x


print(f"scan vs loop: max diff {jnp.abs(y - loop(state, x)).max():.1e} (asserted < 1e-6)")
assert jnp.allclose(y, loop(state, x), atol=1e-6)


# Why scan: the traced program holds one copy of the block, the loop holds six.
def matmuls(f):
    return str(jax.make_jaxpr(f)(state, x)).count("dot_general")


scanned = matmuls(lambda state, x: apply_stack(x, nnx.merge(graphdef, state)))
print(f"matrix products in the program: scan {scanned}, loop {matmuls(loop)}")
assert scanned == 1 and matmuls(loop) == 6

"""in_axes says which axis of each argument is the batch; None shares an argument."""
import jax
import jax.numpy as jnp


def dot(a, b):  # one pair of vectors of shape (3,) -> a scalar
    return jnp.sum(a * b)


a = jnp.arange(12.0).reshape(4, 3)  # 4 vectors, one per row
b = jnp.arange(12.0, 24.0).reshape(4, 3)
v = jnp.array([1.0, 0.5, -1.0])  # one vector, shared by every row of `a`


def show(label, out, *args):
    print(f"{label:<18}", *[x.shape for x in args], "->", out.shape, out)


both = jax.vmap(dot, in_axes=0)(a, b)  # an int: axis 0 of every argument
show("in_axes=0", both, a, b)
shared = jax.vmap(dot, in_axes=(0, None))(a, v)  # None: pass v whole to every call
show("in_axes=(0, None)", shared, a, v)
columns = jax.vmap(dot, in_axes=(0, 1))(a, b.T)  # b.T holds the vectors as columns
show("in_axes=(0, 1)", columns, a, b.T)
assert both.shape == shared.shape == columns.shape == (4,)
assert jnp.allclose(both, jnp.sum(a * b, axis=1)) and jnp.allclose(columns, both)
assert jnp.allclose(shared, jnp.sum(a * v, axis=1))
assert jnp.allclose(jax.vmap(dot, in_axes=(0, -1))(a, b.T), both)  # -1: the last axis
assert jnp.allclose(jax.vmap(dot, in_axes=(0,))(a, b=b), both)  # a keyword argument: axis 0


def outer(a, b):  # (3,), (3,) -> (3, 3)
    return jnp.outer(a, b)


# out_axes says where the batch axis goes in the result: first (the default) or, here, last.
first = jax.vmap(outer)(a, b)
last = jax.vmap(outer, out_axes=2)(a, b)
print("out_axes=0:", first.shape, " out_axes=2:", last.shape)
assert first.shape == (4, 3, 3) and last.shape == (3, 3, 4)
assert jnp.array_equal(last, jnp.moveaxis(first, 0, 2))

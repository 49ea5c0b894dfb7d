"""vmap of vmap: a pairwise distance matrix from a distance between two points."""
import jax
import jax.numpy as jnp


def distance(p, q):  # two points of shape (2,) -> a scalar
    return jnp.sqrt(jnp.sum((p - q) ** 2))


points = jnp.array([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0], [-2.0, 0.0]])  # (4, 2)
centers = jnp.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])  # (3, 2)

# Inner vmap: one point against every center, (2,), (3, 2) -> (3,).
to_centers = jax.vmap(distance, in_axes=(None, 0))
# Outer vmap: every point, (4, 2), (3, 2) -> (4, 3).
pairwise = jax.vmap(to_centers, in_axes=(0, None))
d = pairwise(points, centers)
print(d.shape)
print(d)
assert to_centers(points[0], centers).shape == (3,)
assert d.shape == (4, 3)

# The explicit formula: |p - q|^2 = |p|^2 + |q|^2 - 2 p.q for every pair.
sq = jnp.sum(points**2, 1)[:, None] + jnp.sum(centers**2, 1)[None, :] - 2 * points @ centers.T
assert jnp.allclose(d, jnp.sqrt(jnp.maximum(sq, 0.0)), atol=1e-5)
assert float(d[1, 0]) == 5.0  # the point (3, 4) is 5 away from the origin

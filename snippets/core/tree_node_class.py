"""register_pytree_node_class: the class itself defines tree_flatten and tree_unflatten."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Gaussian:
    def __init__(self, mean, log_std, name="gaussian"):
        self.mean, self.log_std, self.name = mean, log_std, name

    def tree_flatten(self):
        return (self.mean, self.log_std), self.name  # children, then hashable aux data

    @classmethod
    def tree_unflatten(cls, name, children):
        return cls(*children, name=name)

    def log_prob(self, x):
        z = (x - self.mean) / jnp.exp(self.log_std)
        return jnp.sum(-0.5 * z**2 - self.log_std - 0.5 * jnp.log(2 * jnp.pi))


dist = Gaussian(jnp.zeros(2), jnp.zeros(2), name="prior")
grads = jax.jit(jax.grad(Gaussian.log_prob))(dist, jnp.array([1.0, -1.0]))
print(jax.tree.structure(dist))
print("grad of mean:", grads.mean, "| name kept:", grads.name)

assert isinstance(grads, Gaussian) and grads.name == "prior"
assert jnp.allclose(grads.mean, jnp.array([1.0, -1.0]))  # d/dmean of -(x-mean)^2/2
assert len(jax.tree.leaves(dist)) == 2

"""jax.lax.cond picks a branch from a traced predicate; jax.grad differentiates the branch taken."""
import jax
import jax.numpy as jnp


def elu(x):
    # Both branches get the same operands and must return the same shape and dtype.
    return jax.lax.cond(x > 0, lambda x: x, lambda x: jnp.expm1(x), x)


fast_elu, fast_grad = jax.jit(elu), jax.jit(jax.grad(elu))
for value in (2.0, -1.0):
    print(f"elu({value}) = {fast_elu(value):.4f}, grad = {fast_grad(value):.4f}")
assert fast_elu(2.0) == 2.0 and jnp.isclose(fast_elu(-1.0), jnp.expm1(-1.0))
assert fast_grad(2.0) == 1.0 and jnp.isclose(fast_grad(-1.0), jnp.exp(-1.0))

# Under vmap the predicate is a batch, so cond becomes a select: both branches run.
xs = jnp.array([2.0, -1.0, 0.5])
names = {eqn.primitive.name for eqn in jax.make_jaxpr(jax.vmap(elu))(xs).eqns}
print("under vmap, cond in the program:", "cond" in names, "| select_n:", "select_n" in names)
assert "cond" not in names and "select_n" in names
assert jnp.allclose(jax.vmap(elu)(xs), jnp.where(xs > 0, xs, jnp.expm1(xs)))

"""jax.vjp on a dict of parameters, with has_aux=True: the pullback returns a dict of gradients."""
import jax
import jax.numpy as jnp

params = {"w": jnp.array([[1.0, -2.0], [0.5, 0.0]]), "b": jnp.array([0.1, -0.1])}
x = jnp.array([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]])


def loss(params):
    pred = x @ params["w"] + params["b"]
    return jnp.mean(pred**2), {"pred_mean": pred.mean()}  # (value to differentiate, aux)


value, pullback, aux = jax.vjp(loss, params, has_aux=True)  # aux comes back third
(grads,) = pullback(jnp.ones_like(value))  # one entry per primal argument, shaped like params
print("loss:", value, "| aux:", aux)
print("gradient tree:", jax.tree.map(jnp.shape, grads))

g_ref, aux_ref = jax.grad(loss, has_aux=True)(params)
assert jax.tree.structure(grads) == jax.tree.structure(params)
assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, grads, g_ref)))
assert jnp.array_equal(aux["pred_mean"], aux_ref["pred_mean"])

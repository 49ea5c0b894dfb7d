"""has_aux=True: differentiate the first output and pass the second (aux) through untouched."""
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks
rng = np.random.default_rng(0)
x = rng.normal(size=(4, 3)).astype(np.float32)
y = np.array([1.0, -1.0, 1.0, -1.0], np.float32)
w = jnp.ones(3)  # a JAX array, so that x @ w is JAX's product, also in the check


def loss_and_metrics(w, x, y):
    pred = x @ w
    loss = jnp.mean((pred - y) ** 2)
    return loss, {"accuracy": jnp.mean(jnp.sign(pred) == y), "pred": pred}  # (loss, aux)


(loss, aux), grads = jax.value_and_grad(loss_and_metrics, has_aux=True)(w, x, y)
print("loss:", loss, "accuracy:", aux["accuracy"], "grads:", grads)

grads_only, aux_only = jax.grad(loss_and_metrics, has_aux=True)(w, x, y)  # (grads, aux)
plain = jax.grad(lambda w: loss_and_metrics(w, x, y)[0])(w)  # the loss alone
assert jnp.allclose(grads, plain) and jnp.allclose(grads_only, plain)
assert jnp.array_equal(aux["pred"], x @ w) and jnp.array_equal(aux_only["pred"], aux["pred"])
assert jax.tree.structure(aux) == jax.tree.structure(aux_only)  # aux comes back as returned

"""Optimizers from optax.contrib are ordinary init/update pairs: they fit into optax.partition."""
import jax
import jax.numpy as jnp
import optax

params = {"backbone": jnp.ones(3), "head": jnp.ones(2)}
grads = {"backbone": jnp.full(3, 0.5), "head": jnp.full(2, -0.5)}
for name in ["prodigy", "schedule_free_adamw"]:
    opt = getattr(optax.contrib, name)()  # both have default learning rates
    tx = optax.partition({"contrib": opt, "adam": optax.adam(1e-2)}, {"backbone": "adam", "head": "contrib"})
    updates, state = tx.update(grads, tx.init(params), params)
    print(f"optax.contrib.{name}: {type(opt).__name__}, head update {updates['head']}")
    assert isinstance(opt, optax.GradientTransformation) and bool(jnp.all(updates["head"] > 0))

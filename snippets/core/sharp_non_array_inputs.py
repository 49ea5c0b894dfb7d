"""jax.numpy functions reject Python lists; convert once with jnp.asarray."""
import jax
import jax.numpy as jnp
import numpy as np
import torch

values = [1.0, 2.0, 3.0]
print("np.sum(list):   ", np.sum(values))  # NumPy converts silently

errors = {}
for name, fn in (("jnp.sum(list)", jnp.sum), ("torch.sum(list)", torch.sum)):
    try:
        fn(values)
    except TypeError as err:
        errors[name] = err
        print(f"{name + ':':17s} TypeError: {err}")
assert "requires ndarray or scalar arguments" in str(errors["jnp.sum(list)"])
assert "torch.sum(list)" in errors  # PyTorch is just as strict

print("jnp.sum(jnp.asarray(list)):", jnp.sum(jnp.asarray(values)))
assert float(jnp.sum(jnp.asarray(values))) == 6.0

# Why: a list is a pytree, so jit and friends see one input per element.
per_element = jax.make_jaxpr(lambda xs: jnp.sum(jnp.asarray(xs)))(values)
one_array = jax.make_jaxpr(jnp.sum)(jnp.asarray(values))
print("traced inputs, list:", len(per_element.jaxpr.invars), "| array:", len(one_array.jaxpr.invars))
assert len(per_element.jaxpr.invars) == len(values) and len(one_array.jaxpr.invars) == 1

"""device= and backend= still work but are deprecated; put the inputs on the device instead."""
import warnings

import jax
import jax.numpy as jnp


def add_one(x):
    return x + 1


target = jax.devices()[-1]  # the last device (there may be only one)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    on_device = jax.jit(add_one, device=target)
    on_backend = jax.jit(add_one, backend="cpu")
print(len(caught), "warnings; the first:", caught[0].category.__name__, "-", caught[0].message)
assert len(caught) == 2 and all(w.category is DeprecationWarning for w in caught)
assert "backend and device argument on jit is deprecated" in str(caught[0].message)
assert on_device(jnp.ones(2)).devices() == {target}
# Neither combines with the other, nor with in_shardings or out_shardings.
sharding = jax.sharding.SingleDeviceSharding(target)
combination_errors = []
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    for options in ({"device": target, "backend": "cpu"}, {"device": target, "in_shardings": sharding},
                    {"backend": "cpu", "out_shardings": sharding}):
        try:
            jax.jit(add_one, **options)(jnp.ones(2))
        except ValueError as err:
            combination_errors.append(err)
assert len(combination_errors) == 3

# The replacement: commit the input to the device; jit runs where its inputs are.
x = jax.device_put(jnp.ones(2), target)
y = jax.jit(add_one)(x)
print("input on", x.devices(), "-> output on", y.devices())
assert y.devices() == {target}

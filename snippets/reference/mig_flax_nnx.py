"""Flax NNX: nnx.Optimizer needs wrt and update(model, grads); read variables with [...], not .value."""
import warnings

import jax.numpy as jnp
import optax
from flax import nnx

model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
x = jnp.ones((4, 3))

# Code written for Flax 0.10 leaves out `wrt`; it is now a required argument.
try:
    nnx.Optimizer(model, optax.sgd(0.1))
except TypeError as err:
    print("without wrt:", str(err).splitlines()[0])
    assert "wrt" in str(err) and "Flax 0.11.0" in str(err)
else:
    raise AssertionError("nnx.Optimizer accepted a call without wrt")

optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
grads = nnx.grad(lambda m: jnp.mean(m(x) ** 2))(model)

# update() now takes the model too, because the optimizer no longer holds it.
try:
    optimizer.update(grads)
except TypeError as err:
    print("update(grads):", str(err).splitlines()[0])
    assert "(model, grads)" in str(err) and "Flax 0.11.0" in str(err)
else:
    raise AssertionError("update accepted grads without the model")

before = model.kernel[...]  # read a Variable[Array] with [...]
optimizer.update(model, grads)
assert not jnp.allclose(model.kernel[...], before)  # the update was written into the model
print("step after update(model, grads):", int(optimizer.step[...]))

# `.value` still works, but it warns and points to [...] and get_value().
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old_style = model.kernel.value
assert [w.category for w in caught] == [DeprecationWarning]
assert "variable[...]" in str(caught[0].message)
print(".value warns:", " ".join(str(caught[0].message).split()))
assert jnp.array_equal(old_style, model.kernel[...])
assert jnp.array_equal(model.kernel.get_value(), model.kernel[...])

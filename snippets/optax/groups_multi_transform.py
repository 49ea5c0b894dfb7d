"""Older code: optax.multi_transform is the same function as optax.partition, without a warning."""
import warnings
import jax.numpy as jnp
import optax

params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
labels = {"w": "adam", "b": "sgd"}
with warnings.catch_warnings():
    warnings.simplefilter("error")  # any deprecation warning would raise here
    old = optax.multi_transform({"adam": optax.adam(0.1), "sgd": optax.sgd(0.1)}, labels)
    state = old.init(params)
print("optax.multi_transform is optax.partition:", optax.multi_transform is optax.partition)
print("state type:", type(state).__name__, "| MultiTransformState is", optax.MultiTransformState.__name__)
assert optax.multi_transform is optax.partition
assert optax.MultiTransformState is optax.PartitionState and isinstance(state, optax.PartitionState)

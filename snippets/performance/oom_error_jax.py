"""What JAX raises when a buffer cannot be allocated: a JaxRuntimeError that says RESOURCE_EXHAUSTED."""
import jax
import jax.numpy as jnp
from jaxlib import xla_client

shape = (2**20, 2**20, 2**10)  # 2**50 float32 values = 4 PiB: larger than any device, so it fails at once
try:
    jnp.zeros(shape, jnp.float32)
except jax.errors.JaxRuntimeError as error:
    caught = error
print(f"{type(caught).__module__}.{type(caught).__name__}, a subclass of RuntimeError:",
      isinstance(caught, RuntimeError))
print(str(caught).splitlines()[0])

assert "RESOURCE_EXHAUSTED" in str(caught)  # the status code every backend reports
assert isinstance(caught, RuntimeError)
assert xla_client.XlaRuntimeError is jax.errors.JaxRuntimeError  # the older name, the same class
if jax.default_backend() == "cpu":
    assert f"allocating {2**52} bytes" in str(caught)  # the CPU message: the bytes it asked for

# The failed allocation leaves the process usable: the next computation runs normally.
print("after the error:", jnp.arange(4.0).sum())
assert jnp.arange(4.0).sum() == 6.0

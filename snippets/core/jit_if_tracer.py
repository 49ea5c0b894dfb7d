"""A Python `if` on a traced value fails under jit with TracerBoolConversionError."""
import jax
import jax.numpy as jnp


def relu_python(x):
    if x > 0:  # Python needs a real True/False here, but x is a tracer under jit
        return x
    return jnp.zeros_like(x)


print("eager:", relu_python(jnp.float32(2.0)))  # fine: x is a concrete array

error = None
try:
    jax.jit(relu_python)(jnp.float32(2.0))
except jax.errors.TracerBoolConversionError as err:
    error = err
print(type(error).__name__ + ":", error)
assert isinstance(error, jax.errors.TracerBoolConversionError)
assert "Attempted boolean conversion of traced array" in str(error)
assert "depends on the value of the argument x" in str(error)  # it names the culprit
# It is a kind of ConcretizationTypeError, which is a TypeError.
assert isinstance(error, jax.errors.ConcretizationTypeError) and isinstance(error, TypeError)
# int(x) raises a ConcretizationTypeError itself; range(x) raises a sibling, not a subclass.
int_error = None
try:
    jax.jit(lambda v: int(v))(jnp.float32(2.0))
except jax.errors.ConcretizationTypeError as err:
    int_error = err
assert type(int_error) is jax.errors.ConcretizationTypeError
assert not issubclass(jax.errors.TracerIntegerConversionError, jax.errors.ConcretizationTypeError)

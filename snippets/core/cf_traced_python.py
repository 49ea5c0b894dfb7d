"""Python `if` or `range` on a traced value fails under jit, with a Tracer...ConversionError."""
import jax


@jax.jit
def relu_if(x):
    if x > 0:  # `if` needs a Python bool, but x is a tracer with no value yet
        return x
    return 0.0 * x


@jax.jit
def repeat(x, n):
    for _ in range(n):  # `range` needs a Python int, but n is a tracer too
        x = 2.0 * x
    return x


bool_error = int_error = None
try:
    relu_if(1.0)
except jax.errors.TracerBoolConversionError as err:
    bool_error = err
print(type(bool_error).__name__ + ":", str(bool_error).splitlines()[0])

try:
    repeat(1.0, 3)
except jax.errors.TracerIntegerConversionError as err:
    int_error = err
print(type(int_error).__name__ + ":", str(int_error).splitlines()[0])

# Both are TypeErrors; both messages say which argument the value came from.
assert isinstance(bool_error, jax.errors.TracerBoolConversionError)
assert isinstance(int_error, jax.errors.TracerIntegerConversionError)
assert isinstance(bool_error, TypeError) and isinstance(int_error, TypeError)
assert "Attempted boolean conversion of traced array" in str(bool_error)
assert "__index__() method was called on traced array" in str(int_error)
assert "argument x" in str(bool_error) and "argument n" in str(int_error)

"""static_argnums and static_argnames mark the same parameter; each new value retraces."""
import jax
import jax.numpy as jnp

traces = []


def power(x, n):
    traces.append(n)
    for _ in range(n):  # range() needs a Python int: n must be static
        x = x * x
    return x


by_position = jax.jit(power, static_argnums=1)
x = jnp.float32(1.1)
by_position(x, 2)
by_position(x, 2)  # cached
by_position(x, 3)  # new static value: new trace and compile
print("static_argnums=1, calls n=2, 2, 3 -> traces:", traces)
assert traces == [2, 3]

# jit looks up the signature: static_argnums=1 also makes the keyword `n` static, and vice versa.
traces.clear()
by_position(x, n=4)
print("static_argnums=1, call n=4 by keyword -> traces:", traces)
assert traces == [4]

# Sharp edge: the cache key includes how you passed it, so n=2 by keyword traces again.
traces.clear()
by_position(x, n=2)
print("static_argnums=1, call n=2 by keyword after n=2 by position -> traces:", traces)
assert traces == [2]

by_name = jax.jit(power, static_argnames="n")
assert jnp.allclose(by_name(x, 3), x ** 8) and jnp.allclose(by_position(x, 3), x ** 8)
# Both given: the signature is not read, so n passed by position is traced, and range(n) fails.
both = jax.jit(power, static_argnums=(), static_argnames="n")
try:
    both(x, 3)
    raised = False
except jax.errors.TracerIntegerConversionError:
    raised = True
assert raised and jnp.allclose(both(x, n=3), x ** 8)

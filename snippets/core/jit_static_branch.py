"""A static argument is a Python value at trace time: `if` works, and each value compiles once."""
import jax
import jax.numpy as jnp

traces = []


@jax.jit(static_argnames="mode")  # decorator-factory form of jax.jit
def activate(x, mode):
    traces.append(mode)
    if mode == "relu":  # mode is a plain str here, not a tracer
        return jnp.maximum(x, 0.0)
    return jnp.tanh(x)


x = jnp.array([-1.0, 0.5, 2.0])
print(activate(x, mode="relu"))
print(activate(x, mode="tanh"))
activate(x + 1, mode="relu")  # same static value, same shapes: cached
print("traces:", traces)
assert traces == ["relu", "tanh"]  # one trace (and compile) per distinct static value
assert jnp.array_equal(activate(x, mode="relu"), jnp.maximum(x, 0.0))

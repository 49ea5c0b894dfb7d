"""jax.grad also runs your function on tracers; jax.jit keeps the trace and skips Python."""
import jax
import jax.numpy as jnp

received = []  # what the Python function was handed, one entry per run


def loss(w):
    received.append(w)
    return jnp.sum(w**2)


w = jnp.arange(3.0)

grad_fn = jax.grad(loss)
grad_fn(w)
grad_fn(w)
print("grad alone, Python runs:", len(received), [type(t).__name__ for t in received])
# grad runs the Python body on every call, each time with a tracer.
assert len(received) == 2
assert all(isinstance(t, jax.core.Tracer) for t in received)

received.clear()
fast_grad = jax.jit(jax.grad(loss))
for step in range(3):
    g = fast_grad(w + step)  # new values, same shape and dtype
print("jit(grad), Python runs:", len(received), [type(t).__name__ for t in received])
# jit traced once and reused the compiled gradient for the other calls.
assert len(received) == 1
assert jnp.allclose(g, 2 * (w + 2))

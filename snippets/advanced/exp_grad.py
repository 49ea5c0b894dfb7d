"""Differentiate a deserialized function: serialize(vjp_order=1) ships the backward pass too."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import export


def loss(w, x):
    return jnp.mean(jnp.tanh(x @ w) ** 2)


w = np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2)
x = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
exported = export.export(jax.jit(loss))(w, x)  # concrete arrays work as specs too

with_grad = export.deserialize(exported.serialize(vjp_order=1))
g = jax.grad(with_grad.call)(w, x)  # runs the exported VJP program
print("gradient:", g[0])
assert np.allclose(g, jax.grad(loss)(w, x), atol=1e-6)

primal_only = export.deserialize(exported.serialize())  # vjp_order=0 by default
print("has_vjp:", with_grad.has_vjp(), primal_only.has_vjp())
assert with_grad.has_vjp() and not primal_only.has_vjp()  # known before any jax.grad
try:
    jax.grad(primal_only.call)(w, x)
    raise AssertionError("expected no VJP")
except ValueError as err:
    print("grad without vjp_order:", err)
    assert "No VJP is available" in str(err)

try:  # only reverse mode was serialized: no jvp, so no jax.jacfwd either
    jax.jvp(with_grad.call, (w, x), (w, x))
    raise AssertionError("expected no forward mode")
except TypeError as err:
    print("jvp:", err)
    assert "can't apply forward-mode autodiff (jvp)" in str(err)

"""A PyTorch CPU function called from jax.jit through pure_callback, checked against jax.nn.gelu."""
import jax
import jax.numpy as jnp
import numpy as np
import torch

shared = []

def torch_gelu(x):
    t = torch.from_dlpack(x)  # jax.Array -> torch.Tensor on the CPU
    shared.append(t.data_ptr() == x.unsafe_buffer_pointer())  # same memory: no copy
    with torch.no_grad():
        out = torch.nn.functional.gelu(t)  # exact (erf) GELU
    return out.numpy()  # hand JAX a NumPy array of the declared shape and dtype


@jax.jit
def gelu_via_torch(x):
    return jax.pure_callback(torch_gelu, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


x = jax.random.normal(jax.random.key(0), (3, 4), dtype=jnp.float32)
y_torch = gelu_via_torch(x)
y_jax = jax.jit(lambda v: jax.nn.gelu(v, approximate=False))(x)
print("through torch:", np.round(np.asarray(y_torch[0]), 5))
print("jax.nn.gelu:  ", np.round(np.asarray(y_jax[0]), 5))
print("max difference:", float(jnp.max(jnp.abs(y_torch - y_jax))))
assert y_torch.shape == (3, 4) and y_torch.dtype == jnp.float32
assert jnp.allclose(y_torch, y_jax, atol=1e-6)
print("torch tensor shares the JAX buffer:", shared)
assert shared == [True]

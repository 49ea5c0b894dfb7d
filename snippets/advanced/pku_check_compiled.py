"""Test pattern: interpret mode everywhere, the compiled kernel too on a GPU or a TPU."""
import contextlib
import io
import re

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl


def scale_kernel(x_ref, o_ref):
    o_ref[...] = 2.0 * x_ref[...] + 1.0


def scale(x, *, interpret, debug=False):
    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))  # (8, 128) blocks also suit a TPU
    return pl.pallas_call(scale_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          grid=(x.shape[0] // 8,), in_specs=[spec], out_specs=spec,
                          interpret=interpret, debug=debug)(x)


x = jax.random.normal(jax.random.key(0), (16, 128), jnp.float32)
reference = 2.0 * x + 1.0  # the plain jnp version of the kernel

printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    interpreted = scale(x, interpret=True, debug=True)  # debug=True prints the kernel's jaxpr
# The header names the kernel's file: keep its name, drop the directory (it differs per machine).
print(re.sub(r" at \S*?([\w.]+\.py:\d+)", r" at \1", printed.getvalue()).strip())
assert "Jaxpr of the kernel in pallas_call scale_kernel" in printed.getvalue()
assert np.allclose(interpreted, reference, atol=1e-6)
backend = jax.default_backend()
if backend in ("gpu", "tpu"):
    compiled = scale(x, interpret=False)  # Triton / Mosaic GPU / Mosaic TPU lowering
    print(f"{backend}: max |compiled - interpret| =",
          float(jnp.abs(compiled - interpreted).max()))
    assert np.allclose(compiled, interpreted, atol=1e-6)
else:
    print(f"{backend}: interpret mode checked; no kernel compiler here, compiled half skipped")

"""JAX's own dumps: jax_dump_ir_to writes the jaxpr and the StableHLO of every function it compiles."""
import os
import pathlib
import tempfile

import jax
import jax.numpy as jnp


def predict(x):
    return jnp.tanh(x) * 2


x = jnp.arange(4.0) + 1.0  # a computation: JAX is already running when the dump is switched on
with tempfile.TemporaryDirectory() as tmp:
    jax.config.update("jax_dump_ir_to", tmp)  # read at each compilation, so it can change at run time
    jax.config.update("jax_dump_ir_modes", "jaxpr,stablehlo")  # the default is "stablehlo" alone
    try:
        jax.jit(predict)(x)
    finally:
        jax.config.update("jax_dump_ir_to", "")  # an empty path switches dumping off
        jax.config.update("jax_dump_ir_modes", "stablehlo")
    files = sorted(os.listdir(tmp))
    print(files)
    jaxpr_file = next(f for f in files if f.endswith(".jaxpr.txt"))
    mlir_file = next(f for f in files if f.endswith(".mlir"))
    print(pathlib.Path(tmp, jaxpr_file).read_text())
    mlir = pathlib.Path(tmp, mlir_file).read_text()

assert "predict" in jaxpr_file and "jit_predict" in mlir_file
assert "stablehlo.tanh" in mlir and "loc(" in mlir  # StableHLO with source locations by default
print("source locations in the .mlir file:", mlir.count("loc("))

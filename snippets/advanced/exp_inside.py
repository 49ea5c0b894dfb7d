"""What an Exported holds: abstract inputs and outputs, platforms, a calling convention, StableHLO."""
import re

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

w = np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2)


def layer(x):
    return jnp.tanh(x @ w)


exported = export.export(jax.jit(layer))(jax.ShapeDtypeStruct(export.symbolic_shape("b, 4"), jnp.float32))
print("fun_name:", exported.fun_name)
print("in_avals:", exported.in_avals, "out_avals:", exported.out_avals)
print("platforms:", exported.platforms, "nr_devices:", exported.nr_devices)
print("calling convention:", exported.calling_convention_version, "supported:",
      (export.minimum_supported_calling_convention_version, export.maximum_supported_calling_convention_version))

text = exported.mlir_module()  # StableHLO as text
main = re.search(r"func.func public @main\(.*", text).group(0)
check = re.search(r'error_message = "([^"]*)"', text).group(1)
weights = re.search(r"stablehlo.constant dense<\[\[.*?\]\]> : tensor<\w+>", text).group(0)
print(main[:96] + " ...", check[:112] + " ...", weights[:60] + " ... " + weights[-20:], sep="\n")

assert exported.platforms == (export.default_export_platform(),)
assert str(exported.in_avals[0].shape[0]) == "b" and export.is_symbolic_dim(exported.out_avals[0].shape[0])
assert "tensor<?x4xf32>" in main  # the batch dimension is dynamic (?) in the module
assert "Expected value >= 1 for dimension variable 'b'" in check  # checked on every call
assert weights.endswith("tensor<4x2xf32>")  # the closed-over weights are a constant of the program
assert export.minimum_supported_calling_convention_version <= exported.calling_convention_version \
    <= export.maximum_supported_calling_convention_version
# The pinned JAX writes version 10 and reads 9 and 10.
assert exported.calling_convention_version == 10
assert (export.minimum_supported_calling_convention_version,
        export.maximum_supported_calling_convention_version) == (9, 10)

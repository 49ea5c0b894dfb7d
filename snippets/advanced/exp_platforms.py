"""Export for several platforms without their hardware; calling on a platform not exported for fails."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import export


def layer(x):
    return jnp.tanh(x @ jnp.full((4, 2), 0.5, jnp.float32))


spec = jax.ShapeDtypeStruct((3, 4), jnp.float32)
here = export.default_export_platform()  # "cuda" on an NVIDIA GPU, where jax.default_backend() is "gpu"
print("backend here:", jax.default_backend(), "default export platform:", here)

single = export.export(jax.jit(layer))(spec)
multi = export.export(jax.jit(layer), platforms=("cpu", "cuda"))(spec)  # no GPU needed to export
print("platforms:", single.platforms, multi.platforms)
print("module bytes:", len(single.mlir_module_serialized), len(multi.mlir_module_serialized))
main = next(line for line in multi.mlir_module().splitlines() if "@main(" in line)
print(main.strip()[:100], "...")
assert '{jax.global_constant = "_platform_index"}' in main  # the extra first argument picks the platform
assert "stablehlo.case" in multi.mlir_module() and "stablehlo.case" not in single.mlir_module()
assert len(multi.mlir_module_serialized) > len(single.mlir_module_serialized)
# The product is lowered once per platform inside the case; tanh, the same everywhere, once.
counts = {name: [m.mlir_module().count(f"stablehlo.{name}") for m in (single, multi)]
          for name in ("dot_general", "tanh")}
print("occurrences (single, multi):", counts)
assert counts == {"dot_general": [1, 2], "tanh": [1, 1]}

x = np.ones((3, 4), np.float32)
if here in multi.platforms:
    assert np.allclose(multi.call(x), layer(x))  # picks the branch for the platform it runs on
    print("multi-platform export called on", here, "without error")

other = "cuda" if here != "cuda" else "cpu"
only_other = export.export(jax.jit(layer), platforms=(other,))(spec)
try:
    only_other.call(x)
except ValueError as err:
    message = str(err)
else:
    raise AssertionError(f"calling an export for {other!r} on {here!r} should fail")
print(message)
assert "was exported for platforms" in message

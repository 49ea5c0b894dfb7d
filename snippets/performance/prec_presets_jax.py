"""bfloat16 inputs with a float32 accumulator, and dot algorithm presets, against float64."""
import jax
import jax.numpy as jnp
import numpy as np

k1, k2 = jax.random.split(jax.random.key(0))
a = jax.random.normal(k1, (256, 256), jnp.float32)
b = jax.random.normal(k2, (256, 256), jnp.float32)
ref = np.asarray(a, np.float64) @ np.asarray(b, np.float64)


def rel_err(c):
    return float(np.max(np.abs(np.asarray(c, np.float64) - ref)) / np.max(np.abs(ref)))


a16, b16 = a.astype(jnp.bfloat16), b.astype(jnp.bfloat16)
mixed = jnp.matmul(a16, b16, preferred_element_type=jnp.float32)  # bfloat16 in, float32 out
assert mixed.dtype == jnp.float32 and jnp.matmul(a16, b16).dtype == jnp.bfloat16
errors = {"float32, highest": rel_err(jnp.matmul(a, b, precision="highest")),
          "bfloat16 in, float32 out": rel_err(mixed)}
unsupported = {}
for name in ("F32_F32_F32", "TF32_TF32_F32", "BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6"):
    try:  # a preset the backend cannot run raises an error
        errors[name] = rel_err(jnp.matmul(a, b, precision=jax.lax.DotAlgorithmPreset[name]))
    except (ValueError, jax.errors.JaxRuntimeError) as error:  # when lowering, or when compiling
        unsupported[name] = str(error).splitlines()[0]

print(f"backend {jax.default_backend()}")
print(f"{'float32 inputs, unless named':<28} max relative error")
for name, err in errors.items():
    print(f"{name:<28} {err:.1e}")
for name, message in unsupported.items():
    print(f"{name:<28} {message}")

# bfloat16 keeps 8 significant bits, float32 keeps 24: far less accurate on every backend.
assert errors["bfloat16 in, float32 out"] > 100 * errors["float32, highest"]
if "BF16_BF16_F32_X6" in errors:  # six bfloat16 passes come close to float32
    assert errors["BF16_BF16_F32_X6"] < 10 * errors["float32, highest"]
if jax.default_backend() == "cpu":
    assert set(unsupported) == {"TF32_TF32_F32"}  # TF32 is a GPU format
    # The CPU accepts the bfloat16 presets for float32 inputs but multiplies in float32.
    assert errors["BF16_BF16_F32"] == errors["BF16_BF16_F32_X3"] == errors["float32, highest"]

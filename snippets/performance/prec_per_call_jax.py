"""The precision= argument of jnp.matmul, jnp.dot and jnp.einsum."""
import jax
import jax.numpy as jnp
import numpy as np

k1, k2 = jax.random.split(jax.random.key(0))
a = jax.random.normal(k1, (256, 256), jnp.float32)
b = jax.random.normal(k2, (256, 256), jnp.float32)
ref = np.asarray(a, np.float64) @ np.asarray(b, np.float64)

results = {
    "matmul, no precision": jnp.matmul(a, b),
    'matmul, "default"': jnp.matmul(a, b, precision="default"),
    'matmul, "high"': jnp.matmul(a, b, precision="high"),
    'dot, "highest"': jnp.dot(a, b, precision="highest"),
    "einsum, Precision.HIGHEST": jnp.einsum("ij,jk->ik", a, b, precision=jax.lax.Precision.HIGHEST),
}
errors = {}
for name, c in results.items():
    assert c.dtype == jnp.float32  # precision changes the arithmetic, never the result dtype
    errors[name] = float(np.max(np.abs(np.asarray(c, np.float64) - ref)) / np.max(np.abs(ref)))
    print(f"{name:<27} max relative error {errors[name]:.1e}")

assert jax.lax.Precision("highest") is jax.lax.Precision.HIGHEST  # the strings name the enum members
assert errors['dot, "highest"'] < 1e-5 and errors["einsum, Precision.HIGHEST"] < 1e-5
if jax.default_backend() == "cpu":  # the CPU ignores the setting: every call gives the same bits
    assert all(np.array_equal(c, results["matmul, no precision"]) for c in results.values())

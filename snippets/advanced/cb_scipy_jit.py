"""jax.pure_callback runs a SciPy function inside jax.jit; the result matches the jnp version."""
import jax
import jax.numpy as jnp
import numpy as np
import scipy.special

seen = []  # what the callback receives, recorded on the host
platforms = []  # the kind of device that holds each argument


def host_gammaln(x):
    seen.append((type(x).__name__, x.shape, str(x.dtype)))
    platforms.append({d.platform for d in x.devices()})
    return scipy.special.gammaln(np.asarray(x)).astype(x.dtype)  # NumPy in, NumPy out


@jax.jit
def log_gamma(x):
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)  # JAX cannot infer it: declare it
    return jax.pure_callback(host_gammaln, out_type, x)


x = jnp.linspace(0.5, 10.0, 6, dtype=jnp.float32)
y = log_gamma(x)
reference = jax.jit(jax.scipy.special.gammaln)(x)  # the same function, written in jnp
print("callback result:", y)
print("jnp result:     ", reference)
print("the callback saw:", seen)
assert isinstance(y, jax.Array) and y.dtype == jnp.float32
# SciPy's gammaln against JAX's: float32 rounding on the CPU; a TPU computes JAX's with its own approximations.
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-3
gap = float(jnp.max(jnp.abs(y / reference - 1)))
print(f"max relative gap: {gap:.1e}, tolerance on {jax.default_backend()}: {tol:.0e}")
assert jnp.allclose(y, reference, rtol=tol)
assert seen == [("ArrayImpl", (6,), "float32")]  # a jax.Array on the CPU, not a tracer

# Same shape: no new trace, but the callback runs again, when the device reaches it. The call
# returns before that on an accelerator, so wait for the result before reading what it recorded.
log_gamma(x + 1.0).block_until_ready()
print("callback calls after two jitted calls:", len(seen))
assert len(seen) == 2
print("devices of the callback's arguments:", platforms)
assert platforms == [{"cpu"}, {"cpu"}]  # on a CPU device, whatever the default backend

"""A Python if in a schedule fails under jit; a warmup from zero makes the first update a no-op."""
import jax
import jax.numpy as jnp
import optax
import torch

grads = {"w": jnp.ones(1)}
params = {"w": jnp.zeros(1)}


# The schedule runs inside the update, on the count: under jit the count is a tracer.
def python_if(count):
    return 0.1 if count < 10 else 0.01


def with_where(count):
    return jnp.where(count < 10, 0.1, 0.01)


tx = optax.sgd(python_if)
eager, _ = tx.update(grads, tx.init(params))  # works: the count is a concrete array here
try:
    jax.jit(tx.update)(grads, tx.init(params))
    error = None
except jax.errors.TracerBoolConversionError as err:
    error = type(err).__name__
    print(f"jit with a Python if: {error}: {str(err).splitlines()[0]}")
tx = optax.sgd(with_where)
jitted, _ = jax.jit(tx.update)(grads, tx.init(params))
print(f"Python if: eager {float(eager['w'][0]):+.2f}, under jit the error above; jnp.where under jit {float(jitted['w'][0]):+.2f}")
assert error == "TracerBoolConversionError" and jnp.array_equal(eager["w"], jitted["w"])

# A warmup from 0 is allowed, and makes the first update zero; PyTorch's LinearLR refuses 0.
warm = optax.warmup_cosine_decay_schedule(init_value=0.0, peak_value=0.1, warmup_steps=10, decay_steps=100)
tx = optax.adamw(warm)
first, opt_state = tx.update(grads, tx.init(params), params)
second, _ = tx.update(grads, opt_state, params)
print(f"adamw, warmup from 0: first update {abs(float(first['w'][0])):.4f}, second {float(second['w'][0]):+.4f}")
# Off the CPU, Adam's bias correction uses the device's power function (3e-4 relative at step 2 on a TPU).
rtol = 1e-5 if jax.default_backend() == "cpu" else 1e-3
assert float(first["w"][0]) == 0.0 and jnp.isclose(second["w"][0], -warm(1), rtol=rtol)
opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
try:
    torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.0)
    refused = None
except ValueError as err:
    refused = str(err)
print("LinearLR(start_factor=0.0):", refused)
assert refused is not None

"""jax.pmap takes the function first (no @jax.pmap(axis_name=...)), and its in_axes=0 maps every argument."""
import functools
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

n = len(devices)


# jax.jit accepts its options alone and then returns a decorator ...
@jax.jit(static_argnames="power")
def raise_to(x, power):
    return x**power


print("@jax.jit(static_argnames=...):", raise_to(jnp.arange(3.0), power=2))

# ... jax.pmap does not: its first argument is the function, so this line fails at once.
try:
    jax.pmap(axis_name="devices")
    message = "no error"
except TypeError as error:
    message = str(error)
print("jax.pmap(axis_name=...) ->", "TypeError:", message)
assert "missing 1 required positional argument: 'fun'" in message


# The way to give pmap's options to a decorator:
@functools.partial(jax.pmap, axis_name="devices", devices=devices)
def total(x):
    return jax.lax.psum(x, "devices")


out = total(jnp.arange(float(n)))
print("@functools.partial(jax.pmap, axis_name=...):", out)
assert jnp.allclose(out, n * (n - 1) / 2)  # every device holds the sum 0 + 1 + ... + (n - 1)


# The default in_axes=0 splits EVERY argument along its leading axis: the weights and the
# learning rate as well as the per-device gradients.
def sgd_step(w, grads, lr):
    return w - lr * grads


w, grads, lr = jnp.ones(3), jnp.ones((n, 3)), 0.1
w_per_device = jnp.ones((n, 3))  # even with a copy of w for every device ...
try:
    jax.pmap(sgd_step, devices=devices)(w_per_device, grads, lr)  # ... 0.1 has no axis to split
    failure = "no error"
except ValueError as error:
    failure = str(error)
print("jax.pmap(sgd_step)(w_per_device, grads, lr) -> ValueError:", failure[:70], "...")
assert "flat_args[2]" in failure  # argument 2, the learning rate

new_w = jax.pmap(sgd_step, in_axes=(None, 0, None), devices=devices)(w, grads, lr)  # None: same everywhere
print("in_axes=(None, 0, None) ->", new_w.shape, "(one updated copy of w per device)")
assert new_w.shape == (n, 3) and jnp.allclose(new_w, 0.9)

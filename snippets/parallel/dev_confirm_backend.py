"""Confirm where a program ran: the default backend, its devices, and the devices that hold each array."""
import jax
import jax.numpy as jnp

backend = jax.default_backend()  # "cpu", "gpu" or "tpu"
print("default backend:", backend, "| JAX_PLATFORMS:", jax.config.jax_platforms or "not set")
print("jax.devices():", jax.devices())  # the default backend's devices; device_kind names the model
x = jnp.ones((256, 256))  # created without a sharding: on the first default device
y = jax.jit(lambda a: a @ a)(x)  # computed where its input lives
print("x.devices():", x.devices(), "| y.devices():", y.devices())
assert {d.platform for d in jax.devices()} == {backend}  # the three answers agree on any machine
assert x.devices() == y.devices() == {jax.devices()[0]}

# A backend asked for by name raises when JAX has not started it, instead of answering with the CPU.
for name in ("gpu", "tpu"):
    try:
        print(f"jax.devices({name!r}):", jax.devices(name))
    except RuntimeError as err:
        print(f"jax.devices({name!r}) raises RuntimeError: {str(err).split(':')[0]}")
        assert name != backend
    else:
        assert name == backend

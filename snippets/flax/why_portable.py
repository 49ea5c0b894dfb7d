"""Where a Flax model runs: on JAX's default device, with no device code; jax.device_put moves its state."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "2")  # emulated CPU devices; only the CPU backend reads this
import platform
import jax
import jax.numpy as jnp
from flax import nnx

model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))  # no .to(device), no device argument
y = model(jnp.ones((1, 3)))
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
where = {d for leaf in jax.tree.leaves(nnx.state(model)) for d in leaf.devices()} | y.devices()
print("parameters and output live on:", sorted(str(d) for d in where))
assert where == {jax.devices()[0]}  # JAX's default device, chosen by the installed jaxlib

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 2 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:2])
print(f"{len(devices)} devices: {devices[0].platform}")
device = devices[1]  # not the default device
# The counterpart of model.to(device): move the state, then write it back into the model.
nnx.update(model, jax.device_put(nnx.state(model), device))
y = model(jnp.ones((1, 3)))  # the computation runs where the parameters are
where = {d for leaf in jax.tree.leaves(nnx.state(model)) for d in leaf.devices()} | y.devices()
print(f"after jax.device_put to {device}: parameters and output live on", sorted(str(d) for d in where))
assert device != jax.devices()[0] and where == {device}

"""Where a Flax model runs: on JAX's default device, with no device code; Flax itself is pure Python."""
import importlib.metadata
import os
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

# Flax ships no compiled code: the compiled part, one build per platform, is jaxlib.
flax_dist = importlib.metadata.distribution("flax")
tag = [line for line in flax_dist.read_text("WHEEL").splitlines() if line.startswith("Tag:")]
compiled = [f for f in flax_dist.files if f.suffix in {".so", ".pyd", ".dylib"}]
print(f"flax {flax_dist.version}: {tag[0]}, {len(compiled)} compiled files;"
      f" jaxlib {importlib.metadata.version('jaxlib')}")
assert tag == ["Tag: py3-none-any"] and not compiled

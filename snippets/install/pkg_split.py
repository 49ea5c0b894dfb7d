"""jax is a pure-Python wheel; jaxlib holds the compiled code, including jit dispatch and pytrees."""
import importlib.metadata as md

import jax
import jax.numpy as jnp

COMPILED = (".so", ".pyd", ".dylib", ".dll")  # extension modules and shared libraries

sizes, compiled = {}, {}
for name in ("jax", "jaxlib"):
    files = md.files(name)
    compiled[name] = [f for f in files if f.suffix in COMPILED]
    sizes[name] = sum(f.size or 0 for f in files)
    print(f"{name:7s} {len(files):5d} files, {len(compiled[name]):3d} compiled, {sizes[name] / 2**20:6.1f} MiB")

# The objects you touch every day are C++ types defined in jaxlib.
examples = {
    "jax.jit(jnp.sin)": jax.jit(jnp.sin),
    "jax.tree.structure({'w': 1.0})": jax.tree.structure({"w": 1.0}),
    "jnp.ones(3)": jnp.ones(3),
}
for expression, value in examples.items():
    kind = type(value)
    print(f"{expression:31s} -> {kind.__module__}.{kind.__qualname__}")
    assert kind.__module__.startswith("jaxlib.")

assert not compiled["jax"] and compiled["jaxlib"]  # no compiled file in jax, many in jaxlib
assert sizes["jaxlib"] > sizes["jax"]

"""Turning on 64-bit types for the whole program: the config option and the environment variable."""
import os
import subprocess
import sys

import jax
import jax.numpy as jnp

# 1. jax.config.update, usually right after `import jax`. Restored here for the next cells.
previous = jax.config.jax_enable_x64
jax.config.update("jax_enable_x64", True)
try:
    print("config.update:  ", jnp.array(1.0).dtype)
    assert jnp.array(1.0).dtype == jnp.float64
finally:
    jax.config.update("jax_enable_x64", previous)
assert jnp.array(1.0).dtype == jnp.float32

# 2. JAX_ENABLE_X64, read when jax is imported (a fresh process here).
code = "import jax.numpy as jnp; print(jnp.array(1.0).dtype)"
env = dict(os.environ, JAX_ENABLE_X64="1")
env["JAX_PLATFORMS"] = "cpu"  # CPU by design: this process holds the GPU or TPU; the child only reads a flag
child = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       check=True)
print("JAX_ENABLE_X64=1:", child.stdout.strip())
assert child.stdout.strip() == "float64"

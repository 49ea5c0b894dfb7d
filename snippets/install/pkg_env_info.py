"""jax.print_environment_info(): the versions, devices and settings to paste into a bug report."""
import importlib.metadata as md
import os

import jax

jax.print_environment_info()

lines = jax.print_environment_info(return_string=True).splitlines()
assert f"jax:    {jax.__version__}" in lines
assert f"jaxlib: {md.version('jaxlib')}" in lines
assert any(line.startswith("device info:") for line in lines)
for key, value in os.environ.items():
    if key.startswith(("JAX_", "XLA_")):
        assert f"{key}={value}" in lines  # every JAX_ and XLA_ variable is listed

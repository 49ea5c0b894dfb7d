"""jax.named_scope names the operations of a block in StableHLO and in XLA's compiled HLO."""
import re

import jax
import jax.numpy as jnp


def mlp(params, x):
    with jax.named_scope("dense1"):
        h = jnp.tanh(x @ params["w1"])
    with jax.named_scope("dense2"):
        return h @ params["w2"]


def loss(params, x):
    return jnp.sum(mlp(params, x) ** 2)


params = {"w1": jnp.ones((4, 8)), "w2": jnp.ones((8, 2))}
x = jnp.ones((3, 4))
lowered = jax.jit(jax.grad(loss)).lower(params, x)

stablehlo = lowered.as_text(debug_info=True)  # locations are printed only with debug_info
names = sorted(set(re.findall(r'loc\("([^"]*dense[^"]*)"', stablehlo)))
print("StableHLO locations:", *names, sep="\n  ")
hlo = lowered.compile().as_text()  # XLA keeps them as op_name metadata
op_names = sorted(set(re.findall(r'op_name="([^"]*dense[^"]*)"', hlo)))
print("compiled HLO op_name:", *op_names, sep="\n  ")

assert "dense1" not in lowered.as_text()  # the plain text has no locations
assert "jit(loss)/jvp(dense1)/tanh" in names  # forward pass, under grad's jvp
assert any(name.startswith("jit(loss)/transpose(jvp(dense2))/") for name in names)  # backward pass
assert any("dense1" in name for name in op_names) and any("dense2" in name for name in op_names)
assert set(op_names) < set(names)  # XLA dropped some names when it rewrote the program
assert "FileLocations" in hlo  # stack_frame_id in the metadata leads to file and line

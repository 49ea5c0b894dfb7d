"""Weights baked in as constants versus passed as an argument: the size of the blob, and new weights."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import export

key_w, key_x = jax.random.split(jax.random.key(0))
params = {"w": jax.random.normal(key_w, (256, 256)), "b": jnp.zeros(256)}
x_spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 256"), jnp.float32)


def apply(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


baked = export.export(jax.jit(lambda x: apply(params, x)))(x_spec)  # closure: weights become constants
param_specs = jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), params)
as_arg = export.export(jax.jit(apply))(param_specs, x_spec)  # weights stay outside the program

weight_bytes = sum(p.nbytes for p in jax.tree.leaves(params))
sizes = {name: len(e.serialize()) for name, e in [("baked", baked), ("as_arg", as_arg)]}
print("weights:", weight_bytes, "bytes; serialized:", sizes)
print("as_arg inputs:", as_arg.in_tree, as_arg.in_avals)
assert sizes["baked"] > weight_bytes > 50 * sizes["as_arg"]
# The two parameter arrays (b, then w: sorted dict keys) come before x.
assert [a.shape for a in as_arg.in_avals[:2]] == [(256,), (256, 256)] and len(as_arg.in_avals) == 3

x = jax.random.normal(key_x, (3, 256))
assert np.allclose(baked.call(x), as_arg.call(params, x), atol=1e-5)
new_params = jax.tree.map(lambda p: 0.5 * p, params)  # e.g. after more training: no new export
assert np.allclose(as_arg.call(new_params, x), apply(new_params, x), atol=1e-5)

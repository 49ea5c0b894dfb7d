"""A ready-made TPU kernel, megablox gmm (grouped matmul), run in interpret mode on any backend."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.pallas.ops.tpu.megablox import gmm

k1, k2 = jax.random.split(jax.random.key(0))
lhs = jax.random.normal(k1, (16, 128), jnp.float32)  # 16 tokens, 128 features
rhs = jax.random.normal(k2, (2, 128, 128), jnp.float32)  # one weight matrix per group (expert)
group_sizes = jnp.array([6, 10], jnp.int32)  # tokens 0-5 use expert 0, tokens 6-15 expert 1


def gmm_reference(lhs, rhs, group_sizes):
    group_of_row = jnp.repeat(jnp.arange(2), group_sizes, total_repeat_length=lhs.shape[0])
    return jnp.einsum("mk,mkn->mn", lhs, rhs[group_of_row])


with jax.default_matmul_precision("float32"):  # full float32 products on every backend
    out = gmm(lhs, rhs, group_sizes, tiling=(8, 128, 128), interpret=True)
    ref = gmm_reference(lhs, rhs, group_sizes)
print("gmm output:", out.shape, out.dtype)
print(f"max |gmm - jnp reference|: {float(jnp.abs(out - ref).max()):.1e}")
assert out.shape == (16, 128)
assert np.allclose(out, ref, atol=1e-3, rtol=1e-4)

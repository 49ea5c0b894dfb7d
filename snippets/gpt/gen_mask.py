"""One new query and a KV cache: a causal mask built from the query's length hides the cache."""
import numpy as np
import jax
import jax.numpy as jnp
import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products: no TF32 (GPU), no bf16 pass (TPU)

MAX_LEN, HEADS, HEAD_DIM, POS = 16, 4, 16, 9  # the new token sits at position 9 of a 16-slot cache
rng = np.random.default_rng(0)
q, k, v = (rng.standard_normal((1, POS + 1, HEADS, HEAD_DIM), dtype=np.float32) for _ in range(3))

# The reference: all 10 positions at once with a causal mask; keep the last query's output.
ref = jax.nn.dot_product_attention(q, k, v, is_causal=True)[:, -1:]

# The cache: 16 slots, positions 0..9 written, 10..15 still zero.
k_cache = jnp.zeros((1, MAX_LEN, HEADS, HEAD_DIM)).at[:, : POS + 1].set(k)
v_cache = jnp.zeros((1, MAX_LEN, HEADS, HEAD_DIM)).at[:, : POS + 1].set(v)
q_new = q[:, -1:]  # (1, 1, heads, head_dim): one query

wrong_causal = jax.nn.dot_product_attention(q_new, k_cache, v_cache, is_causal=True)  # tril of 1 x 16
no_mask = jax.nn.dot_product_attention(q_new, k_cache, v_cache)  # the 6 empty slots join in
mask = jnp.arange(MAX_LEN)[None, :] <= POS  # key position <= query position
fixed = jax.nn.dot_product_attention(q_new, k_cache, v_cache, mask=mask)

for name, out in (("is_causal=True", wrong_causal), ("no mask", no_mask), ("mask from positions", fixed)):
    print(f"JAX {name:20s} max |out - reference| = {float(jnp.abs(out - ref).max()):.1e}")
assert jnp.allclose(wrong_causal, v_cache[:, :1])  # it attended to key 0 alone
assert float(jnp.abs(no_mask - ref).max()) > 1e-2
assert jnp.allclose(fixed, ref, atol=1e-5)

# PyTorch: the same trap with the cache concatenated (no empty slots), (batch, heads, time, head_dim).
tq, tk, tv = (torch.from_numpy(a).transpose(1, 2) for a in (q, k, v))
t_ref = F.scaled_dot_product_attention(tq, tk, tv, is_causal=True)[:, :, -1:]
t_wrong = F.scaled_dot_product_attention(tq[:, :, -1:], tk, tv, is_causal=True)  # top-left aligned
t_fixed = F.scaled_dot_product_attention(tq[:, :, -1:], tk, tv)  # one query, every cached key
print(f"PyTorch is_causal=True      max |out - reference| = {(t_wrong - t_ref).abs().max():.1e}")
t_lower = F.scaled_dot_product_attention(tq[:, :, -1:], tk, tv, attn_mask=causal_lower_right(1, POS + 1))
print(f"PyTorch no mask             max |out - reference| = {(t_fixed - t_ref).abs().max():.1e}")
assert torch.allclose(t_wrong, tv[:, :, :1])  # key 0 alone, as in JAX
assert torch.allclose(t_fixed, t_ref, atol=1e-5) and torch.allclose(t_lower, t_ref, atol=1e-5)
assert np.allclose(t_fixed.transpose(1, 2).numpy(), np.asarray(fixed), atol=1e-5)

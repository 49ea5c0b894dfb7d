"""jax.nn.dot_product_attention against PyTorch's SDPA: the layouts, the implementation argument, GQA."""
import jax
import jax.numpy as jnp
import numpy as np
import torch
import torch.nn.functional as F

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products, for the 1e-5 comparison

B, N, T, H = 2, 4, 16, 8
rng = np.random.default_rng(0)
q_np, k_np, v_np = (rng.standard_normal((B, N, T, H), dtype=np.float32) for _ in range(3))  # PyTorch: (B, N, T, H)

sdpa = F.scaled_dot_product_attention(*map(torch.from_numpy, (q_np, k_np, v_np)), is_causal=True).numpy()


def to_jax(x):  # (B, N, T, H) -> jax.nn's (B, T, N, H)
    return jnp.asarray(x).transpose(0, 2, 1, 3)


q, k, v = map(to_jax, (q_np, k_np, v_np))
print(f"PyTorch q {q_np.shape} (B, N, T, H) -> JAX q {q.shape} (B, T, N, H); backend {jax.default_backend()}")
out_default = jax.nn.dot_product_attention(q, k, v, is_causal=True)  # implementation=None
out_xla = jax.nn.dot_product_attention(q, k, v, is_causal=True, implementation="xla")
gap = float(jnp.abs(out_xla.transpose(0, 2, 1, 3) - sdpa).max())
print(f"implementation=None vs 'xla': identical {bool((out_default == out_xla).all())}")
print(f"JAX vs SDPA, float32, causal: max |difference| = {gap:.1e}")
assert (out_default == out_xla).all()  # None takes the XLA path in jax 0.12.0.1 and 0.10.2
assert gap < 1e-5

# Grouped-query attention: 4 query heads share 2 key/value heads. JAX reads it from the shapes;
# PyTorch asks for enable_gqa=True.
kg_np, vg_np = k_np[:, :2], v_np[:, :2]
sdpa_gqa = F.scaled_dot_product_attention(*map(torch.from_numpy, (q_np, kg_np, vg_np)), is_causal=True,
                                          enable_gqa=True).numpy()
out_gqa = jax.nn.dot_product_attention(q, to_jax(kg_np), to_jax(vg_np), is_causal=True)
gap_gqa = float(jnp.abs(out_gqa.transpose(0, 2, 1, 3) - sdpa_gqa).max())
print(f"GQA, 4 query heads, 2 key/value heads: max |difference| = {gap_gqa:.1e}")
assert gap_gqa < 1e-5

# cuDNN's fused kernel needs an NVIDIA GPU and float16/bfloat16 (or float8) inputs.
qb, kb, vb = (x.astype(jnp.bfloat16) for x in (q, k, v))
try:
    out_cudnn = jax.nn.dot_product_attention(qb, kb, vb, is_causal=True, implementation="cudnn")
    error = None
except Exception as err:  # RuntimeError: cuDNN is not detected. (CPU, TPU)
    error = f"{type(err).__name__}: {str(err).splitlines()[0]}"
if error:
    print(f"implementation='cudnn' raises {error}")
else:
    out_bf16 = jax.nn.dot_product_attention(qb, kb, vb, is_causal=True, implementation="xla")
    print(f"implementation='cudnn' runs; vs 'xla', bfloat16: max |difference| = "
          f"{float(jnp.abs(out_cudnn.astype(jnp.float32) - out_bf16.astype(jnp.float32)).max()):.1e}")
if jax.default_backend() != "gpu":
    assert error is not None

"""Attention dropout in PyTorch (SDPA's dropout_p) and Flax NNX (dropout_rate, dropout_rng): what can match."""
import jax
import numpy as np
import torch
import torch.nn.functional as F
from flax import nnx
from flax.nnx.nn.attention import dot_product_attention_weights

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products, for the 1e-5 comparison

P = 0.1  # the dropout rate on the attention weights
B, N, T, H = 2, 4, 8, 8
rng = np.random.default_rng(0)
q_np, k_np, v_np = (rng.standard_normal((B, N, T, H), dtype=np.float32) for _ in range(3))  # PyTorch's (B, N, T, H)
qt, kt, vt = map(torch.from_numpy, (q_np, k_np, v_np))
q, k, v = (x.transpose(0, 2, 1, 3) for x in (q_np, k_np, v_np))  # Flax's (B, T, N, H)


DRAWS = 2000  # copies along the batch axis: each copy gets its own dropout mask


@jax.jit
def flax_side(q, k, v, key):
    """Flax's outputs in PyTorch's layout (B, N, T, H): without dropout, then DRAWS copies with it,
    and the weights of 64 copies with dropout and without."""
    def attention(q, k, v, deterministic, key=None):
        return nnx.dot_product_attention(q, k, v, dropout_rng=key, dropout_rate=P, broadcast_dropout=False,
                                         deterministic=deterministic).transpose(0, 2, 1, 3)

    draws_key, weights_key = jax.random.split(key)
    weights = [dot_product_attention_weights(q[:64], k[:64], dropout_rng=weights_key, dropout_rate=P,
                                             broadcast_dropout=False, deterministic=d) for d in (False, True)]
    return attention(q[:B], k[:B], v[:B], True), attention(q, k, v, False, draws_key), weights


jax_eval, jax_draws, jax_weights = jax.tree.map(np.asarray, flax_side(
    *(np.tile(x, (DRAWS, 1, 1, 1)) for x in (q, k, v)), jax.random.key(0)))

# Evaluation: no dropout on either side, and the same numbers.
torch_eval = F.scaled_dot_product_attention(qt, kt, vt, dropout_p=0.0).numpy()  # a module passes 0.0 in eval mode
print(f"evaluation (dropout off): max |PyTorch - NNX| = {np.abs(jax_eval - torch_eval).max():.1e}")
assert np.allclose(jax_eval, torch_eval, atol=1e-5)

# Training: two generators, two masks.
torch.manual_seed(0)
rep = [x.repeat(DRAWS, 1, 1, 1) for x in (qt, kt, vt)]
torch_draws = F.scaled_dot_product_attention(*rep, dropout_p=P).reshape(DRAWS, B, N, T, H).numpy()
jax_draws = jax_draws.reshape(DRAWS, B, N, T, H)
torch_train, jax_train = torch_draws[0], jax_draws[0]  # one draw each
print(f"training, one draw: max |PyTorch - NNX| = {np.abs(jax_train - torch_train).max():.2f}")
assert not np.allclose(jax_train, torch_train, atol=1e-2)

# What does hold: the expected output is the evaluation output.
torch_mean, jax_mean = torch_draws.mean(0), jax_draws.mean(0)
gaps = {"PyTorch": float(np.abs(torch_mean - torch_eval).max()), "NNX": float(np.abs(jax_mean - jax_eval).max())}
print(f"mean of {DRAWS} draws vs evaluation output: max |difference| PyTorch {gaps['PyTorch']:.3f},"
      f" NNX {gaps['NNX']:.3f} (one draw: {float(np.abs(torch_train - torch_eval).max()):.2f})")
assert max(gaps.values()) < 0.05

# The kept weights are scaled by 1/(1 - P), so that their expected value is unchanged.
mha = torch.nn.MultiheadAttention(N * H, N, dropout=P, batch_first=True)
x = torch.from_numpy(rng.standard_normal((64, T, N * H), dtype=np.float32))
mha.train()
torch.manual_seed(2)
_, w_train = mha(x, x, x, average_attn_weights=False)  # (batch, heads, query, key), after dropout
mha.eval()
_, w_eval = mha(x, x, x, average_attn_weights=False)
kept = w_train != 0
torch_ratio = (w_train[kept] / w_eval[kept]).detach()
jax_kept = jax_weights[0] != 0
jax_ratio = jax_weights[0][jax_kept] / jax_weights[1][jax_kept]
print(f"dropped: PyTorch {1 - kept.float().mean().item():.3f}, NNX {1 - jax_kept.mean():.3f} of the weights;"
      f" kept ones x{torch_ratio.mean().item():.4f} and x{jax_ratio.mean():.4f}; 1/(1 - {P}) = {1 / (1 - P):.4f}")
assert torch.allclose(torch_ratio, torch.tensor(1 / (1 - P)), rtol=1e-5)
assert np.allclose(jax_ratio, 1 / (1 - P), rtol=1e-5)
assert abs(1 - kept.float().mean().item() - P) < 0.02 and abs(1 - jax_kept.mean() - P) < 0.02

"""nn.Dropout vs nnx.Dropout: identity in eval mode; in train mode, kept values are scaled by 1/(1-p)."""
import jax.numpy as jnp
import numpy as np
import torch
from flax import nnx

p = 0.3
x = np.random.default_rng(0).uniform(1.0, 2.0, size=(100, 100)).astype(np.float32)  # no zeros
torch.manual_seed(0)  # torch draws its masks from the global generator
drop_t = torch.nn.Dropout(p)
drop_j = nnx.Dropout(p, rngs=nnx.Rngs(dropout=0))  # NNX draws them from its own "dropout" stream

drop_t.eval()
drop_j.eval()
with torch.no_grad():
    assert np.array_equal(drop_t(torch.from_numpy(x)).numpy(), x)
assert np.array_equal(np.asarray(drop_j(jnp.asarray(x))), x)
print("eval mode: both return the input unchanged")

drop_t.train()
drop_j.train()
with torch.no_grad():
    y_t = drop_t(torch.from_numpy(x)).numpy()
y_j, y_j2 = np.asarray(drop_j(jnp.asarray(x))), np.asarray(drop_j(jnp.asarray(x)))
for name, y in [("torch", y_t), ("nnx", y_j)]:
    kept = y != 0
    print(f"train mode, {name:5s}: kept {kept.mean():.3f} of the values (1 - p = {1 - p}), "
          f"kept values / input = {np.median(y[kept] / x[kept]):.4f} (1 / (1 - p) = {1 / (1 - p):.4f})")
    assert abs(kept.mean() - (1 - p)) < 0.02  # 10,000 draws: about 4 standard deviations
    assert np.allclose(y[kept], x[kept] / (1 - p), rtol=1e-6)
assert not np.array_equal(y_j != 0, y_j2 != 0)  # each call draws a new mask
state_types = sorted({type(v).__name__ for _, v in nnx.to_flat_state(nnx.state(drop_j))})
draws = int(drop_j.rngs.count[...])  # ...because the stream's counter advanced
print("nnx.Dropout state:", state_types, "| draws so far:", draws)
assert state_types == ["RngCount", "RngKey"] and draws == 2

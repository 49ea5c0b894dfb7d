"""Both param-group programs from the same weights: 20 AdamW steps, then compare every parameter."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
import torch

# Exact float32 products on every backend, for the comparison: by default a TPU multiplies float32
# in one bfloat16 pass and an A100 or H100 in TF32, which would outweigh the differences compared here.
jax.config.update("jax_default_matmul_precision", "highest")

rng = np.random.default_rng(0)
w1, w2 = rng.normal(size=(4, 8)).astype(np.float32), rng.normal(size=(8, 1)).astype(np.float32)
x, y = rng.normal(size=(16, 4)).astype(np.float32), rng.normal(size=(16, 1)).astype(np.float32)

# PyTorch: the network and the two groups of the first tab, written more compactly.
net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.LayerNorm(8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
with torch.no_grad():
    for layer, w in [(net[0], w1), (net[3], w2)]:
        layer.weight.copy_(torch.from_numpy(w.T))
        layer.bias.zero_()
groups = [{"params": [p for p in net.parameters() if p.ndim == 2], "weight_decay": 0.1},  # the weights
          {"params": [p for p in net.parameters() if p.ndim == 1], "weight_decay": 0.0}]  # the rest
opt = torch.optim.AdamW(groups, lr=0.05)
for _ in range(20):
    opt.zero_grad()
    torch.mean((net(torch.from_numpy(x)) - torch.from_numpy(y)) ** 2).backward()
    opt.step()
t = [p.detach().numpy() for p in net.parameters()]  # in the order of the JAX leaves below
torch_leaves = [t[1], t[0].T, t[3], t[2], t[5], t[4].T]

# JAX: the parameters of the second tab, and the same labels (decay on the two kernels).
params = {"hidden": {"kernel": jnp.asarray(w1), "bias": jnp.zeros(8)},
          "norm": {"scale": jnp.ones(8), "bias": jnp.zeros(8)},
          "out": {"kernel": jnp.asarray(w2), "bias": jnp.zeros(1)}}


def loss_fn(p):
    h = x @ p["hidden"]["kernel"] + p["hidden"]["bias"]
    h = (h - h.mean(-1, keepdims=True)) / jnp.sqrt(h.var(-1, keepdims=True) + 1e-5)
    h = jnp.tanh(h * p["norm"]["scale"] + p["norm"]["bias"])
    return jnp.mean((h @ p["out"]["kernel"] + p["out"]["bias"] - y) ** 2)


def max_diff_after_20_steps(tx):
    @jax.jit
    def step(p, state):
        updates, state = tx.update(jax.grad(loss_fn)(p), state, p)
        return optax.apply_updates(p, updates), state

    p, state = params, tx.init(params)
    for _ in range(20):
        p, state = step(p, state)
    return max(float(np.abs(a - b).max()) for a, b in zip(torch_leaves, jax.tree.leaves(p)))


labels = jax.tree_util.tree_map_with_path(
    lambda path, _: "decay" if path[-1].key == "kernel" else "no_decay", params)
diff = max_diff_after_20_steps(optax.partition({"decay": optax.adamw(0.05, weight_decay=0.1),
                                                "no_decay": optax.adamw(0.05, weight_decay=0.0)}, labels))
diff_all = max_diff_after_20_steps(optax.adamw(0.05, weight_decay=0.1))  # decay on every parameter
# Absolute; the parameters are of order 1 and float32 epsilon is about 1.2e-7. Off the CPU, tanh and
# Adam's bias correction 1 - b2**t (a power) use the device's own float32 functions: 1.5e-4 on a TPU v5e.
tol = 5e-5 if jax.default_backend() == "cpu" else 5e-4
print(f"max |PyTorch - optax.partition| over all parameters: {diff:.1e} "
      f"(tolerance {tol:.0e} on {jax.default_backend()})")
print(f"max |PyTorch - one optax.adamw for everything|:      {diff_all:.1e}")
assert diff < tol
assert diff_all > 100 * tol  # the groups matter: decaying every parameter gives other numbers

"""Port a seeded PyTorch CNN to Flax NNX: copy its state_dict, then compare outputs in eval and train mode."""
import jax
import jax.numpy as jnp
import numpy as np
import torch
from flax import nnx
from torch import nn

# Exact float32 products on every backend, for the comparison: by default a TPU multiplies float32
# in one bfloat16 pass and an A100 or H100 in TF32, which would outweigh the differences compared here.
jax.config.update("jax_default_matmul_precision", "highest")

torch.manual_seed(0)
torch_model = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
    nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8 * 4 * 4, 10))
rngs = nnx.Rngs(0)
nnx_model = nnx.Sequential(
    nnx.Conv(3, 8, kernel_size=(3, 3), padding=((1, 1), (1, 1)), rngs=rngs),
    nnx.BatchNorm(8, momentum=0.9, rngs=rngs), nnx.relu,  # Flax 0.9 = torch 0.1
    lambda x: nnx.max_pool(x, (2, 2), strides=(2, 2)),
    lambda x: x.transpose(0, 3, 1, 2).reshape(x.shape[0], -1),  # flatten in (C, H, W) order
    nnx.Linear(8 * 4 * 4, 10, rngs=rngs))

NAMES = {  # state_dict suffix -> NNX attribute, for each NNX layer type
    nnx.Conv: {"weight": "kernel", "bias": "bias"},
    nnx.Linear: {"weight": "kernel", "bias": "bias"},
    nnx.BatchNorm: {"weight": "scale", "bias": "bias", "running_mean": "mean", "running_var": "var"}}
AXES = {nnx.Conv: (2, 3, 1, 0), nnx.Linear: (1, 0)}  # torch (out, in, kh, kw) -> (kh, kw, in, out)


def copy_torch_to_nnx(torch_seq, nnx_seq):
    """Copy the state_dict of an nn.Sequential into an nnx.Sequential with the same layer indices."""
    copied = 0
    for key, tensor in torch_seq.state_dict().items():
        index, suffix = key.split(".")
        if suffix == "num_batches_tracked":
            continue  # NNX keeps no such counter
        layer = nnx_seq.layers[int(index)]
        value = tensor.numpy()
        if suffix == "weight" and type(layer) in AXES:
            value = value.transpose(AXES[type(layer)])
        var = getattr(layer, NAMES[type(layer)][suffix])
        assert var.shape == value.shape, (key, var.shape, value.shape)  # [...] = would broadcast
        var[...] = jnp.asarray(value)
        copied += 1
    assert copied == len(nnx.to_flat_state(nnx.state(nnx_seq, (nnx.Param, nnx.BatchStat))))  # all written
    return copied


data = np.random.default_rng(0).normal(size=(5, 8, 3, 8, 8)).astype(np.float32)  # 5 batches, NCHW
with torch.no_grad():
    for batch in data[:4]:  # a few training-mode steps, so the running statistics are not 0 and 1
        torch_model(torch.from_numpy(batch))
print("copied", copy_torch_to_nnx(torch_model, nnx_model), "arrays from the state_dict")
var_before = np.asarray(nnx_model.layers[1].var[...])  # the copied running variance
x_t, x_j = torch.from_numpy(data[4]), jnp.asarray(data[4].transpose(0, 2, 3, 1))  # NCHW -> NHWC

tol = 1e-5  # float32
torch_model.eval()  # BatchNorm uses the running statistics
nnx_model.eval()
with torch.no_grad():
    err_eval = np.abs(torch_model(x_t).numpy() - np.asarray(nnx_model(x_j))).max()
torch_model.train()  # BatchNorm uses the batch statistics and updates the running ones
nnx_model.train()
with torch.no_grad():
    err_train = np.abs(torch_model(x_t).numpy() - np.asarray(nnx_model(x_j))).max()
print(f"max |torch - nnx| of the logits: eval {err_eval:.1e}, train {err_train:.1e} (tolerance {tol:.0e})")
assert err_eval < tol and err_train < tol

# The running statistics after this one step: the means agree; torch stored the unbiased variance.
bn_t, bn_j = torch_model[1], nnx_model.layers[1]
n = 8 * 8 * 8  # values per channel in the batch: N x H x W
mean_err = np.abs(bn_t.running_mean.numpy() - np.asarray(bn_j.mean[...])).max()
var_raw = np.abs(bn_t.running_var.numpy() - np.asarray(bn_j.var[...])).max()
var_j = 0.9 * var_before + (np.asarray(bn_j.var[...]) - 0.9 * var_before) * n / (n - 1)
var_err = np.abs(bn_t.running_var.numpy() - var_j).max()
print(f"running mean diff {mean_err:.1e}; running var diff {var_raw:.1e}, {var_err:.1e} after n/(n-1)")
assert mean_err < tol and var_err < tol < var_raw

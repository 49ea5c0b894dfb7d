"""nn.Conv2d vs nnx.Conv: layouts, when padding="SAME" equals padding=1, and the stride of max pooling."""
import jax
import jax.numpy as jnp
import numpy as np
import torch
from flax import nnx

# Exact float32 products on every backend, for the comparison: by default a TPU multiplies float32
# in one bfloat16 pass and an A100 or H100 in TF32, which would outweigh the differences compared here.
jax.config.update("jax_default_matmul_precision", "highest")
TOL = 1e-5  # float32 rounding of a 27-term sum; a wrong port misses by the size of the outputs

x = np.random.default_rng(0).normal(size=(2, 3, 8, 8)).astype(np.float32)  # NCHW
x_j = jnp.asarray(x.transpose(0, 2, 3, 1))  # NHWC for Flax


def compare(stride, torch_padding, flax_padding):
    torch.manual_seed(0)
    conv_t = torch.nn.Conv2d(3, 4, kernel_size=3, stride=stride, padding=torch_padding)
    conv_j = nnx.Conv(3, 4, kernel_size=(3, 3), strides=stride, padding=flax_padding,
                      rngs=nnx.Rngs(0))
    # torch weight (out, in, kh, kw) -> Flax kernel (kh, kw, in, out)
    conv_j.kernel[...] = jnp.asarray(conv_t.weight.detach().numpy().transpose(2, 3, 1, 0))
    conv_j.bias[...] = jnp.asarray(conv_t.bias.detach().numpy())
    with torch.no_grad():
        y_t = conv_t(torch.from_numpy(x)).numpy().transpose(0, 2, 3, 1)  # back to NHWC
    y_j = np.asarray(conv_j(x_j))
    same_shape = y_t.shape == y_j.shape
    err = np.abs(y_t - y_j).max() if same_shape else np.inf  # inf: the shapes differ
    print(f"stride {stride}, torch padding={torch_padding!s:2s} flax padding={flax_padding!s:16s} "
          f"output H, W: {y_t.shape[1:3]} vs {y_j.shape[1:3]}" + (f", max diff {err:.1e}" if same_shape else ""))
    return err


print(f"tolerance for a right port: {TOL:.0e}")
assert compare(1, 1, "SAME") < TOL  # stride 1: SAME pads one pixel on each side, like padding=1
assert 0.1 < compare(2, 1, "SAME") < np.inf  # stride 2: same shape, numbers off by far more than TOL
assert compare(2, 1, ((1, 1), (1, 1))) < TOL  # explicit (low, high) pairs always match
assert compare(1, 0, "SAME") == np.inf  # the defaults differ: torch pads 0, nnx.Conv pads SAME
assert compare(1, 0, "VALID") < TOL

# Why: SAME pads (low, high) so that out = ceil(in / stride); at stride 2 that is (0, 1), not (1, 1).
pads = jax.lax.padtype_to_pads((8, 8), (3, 3), (2, 2), "SAME")
print("SAME pads at stride 2 (low, high):", pads)
assert [tuple(p) for p in pads] == [(0, 1), (0, 1)]

# Pooling: torch's stride defaults to the window, nnx.max_pool's to 1.
pooled_t = torch.nn.MaxPool2d(2)(torch.from_numpy(x))
print("MaxPool2d(2):", tuple(pooled_t.shape[2:]), "| nnx.max_pool(x, (2, 2)):",
      nnx.max_pool(x_j, (2, 2)).shape[1:3], "| with strides=(2, 2):",
      nnx.max_pool(x_j, (2, 2), strides=(2, 2)).shape[1:3])
assert nnx.max_pool(x_j, (2, 2)).shape[1:3] == (7, 7)
assert np.array_equal(pooled_t.numpy().transpose(0, 2, 3, 1), nnx.max_pool(x_j, (2, 2), strides=(2, 2)))

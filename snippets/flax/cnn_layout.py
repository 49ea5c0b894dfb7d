"""NHWC in Flax: nnx.Conv is lax.conv_general_dilated with channels-last axes; NCHW input fails."""
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx

conv = nnx.Conv(1, 32, kernel_size=(3, 3), rngs=nnx.Rngs(0))
x_nhwc = np.random.default_rng(0).random((16, 8, 8, 1), dtype=np.float32)
kernel = conv.kernel[...]
print("kernel", kernel.shape, "(H, W, in, out) | input", x_nhwc.shape, "(N, H, W, C)")

# nnx.Conv calls lax.conv_general_dilated with channels-last dimension numbers.
lax_nhwc = jax.lax.conv_general_dilated(x_nhwc, kernel, (1, 1), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))
# lax's own default is NCHW: the same numbers, with the axes in another order.
lax_nchw = jax.lax.conv_general_dilated(x_nhwc.transpose(0, 3, 1, 2), kernel.transpose(3, 2, 0, 1),
                                        (1, 1), "SAME")  # dimension_numbers=None
out = conv(x_nhwc) - conv.bias[...]  # compare the convolutions, without the bias
d_nhwc = float(jnp.max(jnp.abs(lax_nhwc - out)))
d_nchw = float(jnp.max(jnp.abs(lax_nchw.transpose(0, 2, 3, 1) - out)))
print("nnx.Conv output", out.shape, "| lax default (NCHW) output", lax_nchw.shape)
print(f"max difference to nnx.Conv: lax NHWC {d_nhwc:.1e}, lax NCHW transposed {d_nchw:.1e} (asserted < 1e-5)")
assert d_nhwc < 1e-5 and d_nchw < 1e-5

# A PyTorch-style NCHW batch: nnx.Conv reads its last axis (8) as the channels.
try:
    conv(x_nhwc.transpose(0, 3, 1, 2))
except ValueError as err:
    print("NCHW input:", type(err).__name__, err)
    assert "8 // 1 != 1" in str(err)
else:
    raise AssertionError("an NCHW batch should not fit a 1-channel nnx.Conv")

# With 8 input channels the same mistake runs: the 8 columns are taken as the channels.
conv8 = nnx.Conv(8, 4, kernel_size=(3, 3), rngs=nnx.Rngs(0))
wrong = conv8(np.zeros((16, 8, 8, 8), np.float32).transpose(0, 3, 1, 2))  # NCHW batch
print("8-channel NCHW batch into nnx.Conv(8, 4): no error, output", wrong.shape)
assert wrong.shape == (16, 8, 8, 4)

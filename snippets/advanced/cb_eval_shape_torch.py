"""PyTorch: tensors on the "meta" device carry shapes and dtypes but no data, like jax.eval_shape."""
import resource

import torch


def huge(x):
    n = x.shape[0]
    big = torch.ones(n, n, dtype=x.dtype, device=x.device)  # 40 GB for n = 100,000 if it ran
    return big @ x, {"norm": torch.linalg.norm(big)}


huge(torch.empty(2, device="meta"))  # warm-up: PyTorch loads code on first use
peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # the process's high-water mark, KiB on Linux
out = huge(torch.empty(100_000, device="meta"))  # the whole function runs on shapes only
peak_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(out[0].shape, out[0].dtype, out[0].device, "| norm:", out[1]["norm"].shape)
print(f"high-water mark of the process's memory rose by {(peak_after - peak_before) / 1024:.0f} MiB")
assert out[0].shape == (100_000,) and out[0].is_meta and out[1]["norm"].shape == ()
assert peak_after - peak_before < 200 * 1024

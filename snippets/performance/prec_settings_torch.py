"""PyTorch's float32 matmul settings, old and new, on CPU tensors."""
import numpy as np
import torch

torch.manual_seed(0)
a, b = torch.randn(256, 256), torch.randn(256, 256)  # float32, on the CPU
ref = a.double() @ b.double()
print("defaults:", torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32,
      torch.backends.cudnn.allow_tf32)
assert torch.get_float32_matmul_precision() == "highest" and not torch.backends.cuda.matmul.allow_tf32
assert torch.backends.cudnn.allow_tf32  # cuDNN convolutions may use TF32 by default

results = {}
for level in ("highest", "high", "medium"):
    torch.set_float32_matmul_precision(level)  # "high": TF32 for CUDA matmuls on Ampere and newer
    results[level] = a @ b
    err = ((results[level].double() - ref).abs().max() / ref.abs().max()).item()
    print(f"{level:<8} cuda.matmul.allow_tf32={torch.backends.cuda.matmul.allow_tf32!s:<5} "
          f"mkldnn.matmul={torch.backends.mkldnn.matmul.fp32_precision:<4} max relative error {err:.1e}")
    assert torch.backends.cuda.matmul.allow_tf32 == (level != "highest")
# "high" changes nothing on the CPU; "medium" also lets oneDNN (mkldnn), the CPU library, use bfloat16.
assert torch.equal(results["high"], results["highest"])
assert torch.backends.mkldnn.matmul.fp32_precision == "bf16"
torch.set_float32_matmul_precision("highest")

# The newer, per-backend API: "ieee" is full float32, "tf32" allows TF32, "none" inherits.
torch.backends.cuda.matmul.fp32_precision = "tf32"
print("fp32_precision: generic", torch.backends.fp32_precision, "| cuda.matmul",
      torch.backends.cuda.matmul.fp32_precision, "| cudnn.conv", torch.backends.cudnn.conv.fp32_precision)
assert torch.backends.cuda.matmul.fp32_precision == "tf32"
assert torch.backends.cudnn.conv.fp32_precision == "tf32"  # the same default as cudnn.allow_tf32
try:  # one program, one API: the old flag refuses to read a setting made with the new one
    torch.backends.cuda.matmul.allow_tf32
except RuntimeError as error:
    print("RuntimeError:", str(error).split(",")[0])
else:
    raise AssertionError("mixing the two APIs did not raise")

"""PyTorch + Triton: a vector add kernel, run on CPU tensors by Triton's interpreter."""
import os
import subprocess
import sys

# Triton reads TRITON_INTERPRET whenever @triton.jit runs, also for its own library functions
# (tl.max, tl.sum ...) when `import triton` runs: set it before the import, in a fresh process.
TRITON_PROGRAM = r'''
import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)  # which block this program handles
    offsets = pid * BLOCK + tl.arange(0, BLOCK)  # pointer arithmetic by hand
    mask = offsets < n  # the last block runs past the end of the arrays
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


n, block = 1000, 256
x_np = np.linspace(0.0, 1.0, n, dtype=np.float32)
y_np = np.cos(np.arange(n, dtype=np.float32))
x, y = torch.from_numpy(x_np), torch.from_numpy(y_np)  # CPU tensors
out = torch.empty_like(x)
grid = (triton.cdiv(n, block),)  # 4 programs, the last one partly masked
add_kernel[grid](x, y, out, n, BLOCK=block)
print("kernel type:", type(add_kernel).__name__)
print("grid:", grid, "first values:", out[:3].tolist())
assert np.array_equal(out.numpy(), x_np + y_np)  # the same float32 additions, so exactly equal
'''
child = subprocess.run([sys.executable, "-c", TRITON_PROGRAM], capture_output=True, text=True,
                       env={**os.environ, "TRITON_INTERPRET": "1"})
print(child.stdout, end="")
assert child.returncode == 0 and child.stderr == "", child.stderr[-2000:]
assert "kernel type: InterpretedFunction" in child.stdout  # Triton's CPU interpreter ran it

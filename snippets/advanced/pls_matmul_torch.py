"""PyTorch + Triton: a tiled matmul, one program per output tile, a loop over K inside."""
import os
import subprocess
import sys

TRITON_PROGRAM = r'''
import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):  # walk along K, one (BM, BK) @ (BK, BN) product at a time
        ks = k + tl.arange(0, BK)
        a = tl.load(a_ptr + rows[:, None] * K + ks[None, :])  # row-major strides by hand
        b = tl.load(b_ptr + ks[:, None] * N + cols[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)


M, N, K, bm, bn, bk = 64, 96, 128, 32, 32, 32  # multiples of the blocks: no masks needed
rng = np.random.default_rng(0)
a_np = rng.normal(size=(M, K)).astype(np.float32)
b_np = rng.normal(size=(K, N)).astype(np.float32)
c = torch.empty(M, N)
grid = (M // bm, N // bn)
matmul_kernel[grid](torch.from_numpy(a_np), torch.from_numpy(b_np), c, M, N, K,
                    BM=bm, BN=bn, BK=bk)
numpy_ref = a_np.astype(np.float64) @ b_np.astype(np.float64)
print("grid:", grid, "K steps per program:", K // bk)
print(f"max |triton - float64 NumPy|: {np.abs(c.numpy() - numpy_ref).max():.1e}")
assert np.allclose(c.numpy(), numpy_ref, atol=1e-3, rtol=1e-4)
'''
child = subprocess.run([sys.executable, "-c", TRITON_PROGRAM], capture_output=True, text=True,
                       env={**os.environ, "TRITON_INTERPRET": "1"})
print(child.stdout, end="")
assert child.returncode == 0 and child.stderr == "", child.stderr[-2000:]

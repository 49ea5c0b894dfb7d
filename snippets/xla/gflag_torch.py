"""PyTorch's counterparts of XLA's GPU flags: cuDNN autotuning, determinism, CUDA graphs, DDP buckets."""
import os
import tempfile

import torch
import torch.distributed as dist
from torch._inductor import list_mode_options

print("torch.backends.cudnn.benchmark:", torch.backends.cudnn.benchmark)  # autotune convolutions
print("deterministic algorithms:", torch.are_deterministic_algorithms_enabled())
assert torch.backends.cudnn.benchmark is False
assert torch.are_deterministic_algorithms_enabled() is False
torch.use_deterministic_algorithms(True)  # like xla_gpu_deterministic_ops: one switch per process
assert torch.are_deterministic_algorithms_enabled()
torch.use_deterministic_algorithms(False)

# CUDA graphs: explicit with torch.cuda.graph, or through torch.compile's "reduce-overhead" mode.
overhead = list_mode_options("reduce-overhead")
print('torch.compile(mode="reduce-overhead") sets', overhead)
assert overhead == {"triton.cudagraphs": True} and hasattr(torch.cuda, "CUDAGraph")

# DDP packs gradients into buckets of bucket_cap_mb MiB before each all-reduce.
with tempfile.TemporaryDirectory() as tmp:
    store = dist.FileStore(os.path.join(tmp, "store"), 1)
    dist.init_process_group("gloo", store=store, rank=0, world_size=1)
    ddp = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4))
    print("DDP bucket size:", ddp.bucket_bytes_cap / 2**20, "MiB")
    assert ddp.bucket_bytes_cap == 25 * 2**20
    dist.destroy_process_group()

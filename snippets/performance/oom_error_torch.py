"""What PyTorch raises when a CPU allocation fails, and why `except torch.OutOfMemoryError` misses it."""
import torch

try:
    torch.empty(2**50, dtype=torch.float32)  # 4 PiB: refused at once by the CPU allocator
except RuntimeError as error:
    caught = error
print(type(caught).__name__, "| is torch.OutOfMemoryError:", isinstance(caught, torch.OutOfMemoryError))
message = str(caught)
print(message[message.index("DefaultCPUAllocator"):])

assert f"DefaultCPUAllocator: can't allocate memory: you tried to allocate {2**52} bytes" in message
assert not isinstance(caught, torch.OutOfMemoryError)  # the CPU raises a plain RuntimeError
# torch.cuda.OutOfMemoryError is the same class as torch.OutOfMemoryError, a RuntimeError subclass.
assert torch.cuda.OutOfMemoryError is torch.OutOfMemoryError
assert issubclass(torch.OutOfMemoryError, RuntimeError)
print("after the error:", torch.arange(4.0).sum().item())
assert torch.arange(4.0).sum().item() == 6.0  # the process goes on computing

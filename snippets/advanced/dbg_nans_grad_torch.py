"""torch.autograd.detect_anomaly on the same NaN gradient: it stops in the backward pass."""
import warnings

import torch


def f(x):
    return torch.where(x > 0, torch.sqrt(x), 0.0).sum()  # sqrt(-1) is NaN, then masked


x = torch.tensor([4.0, -1.0], requires_grad=True)
value = f(x)
value.backward()
print("value:", value.item(), " gradient:", x.grad)
grad = x.grad.clone()

x.grad = None
# detect_anomaly warns that it is on, and reports the forward line as a warning: record them.
with warnings.catch_warnings(record=True) as records:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly():
            f(x).backward()
    except RuntimeError as exc:
        caught = exc
    else:
        raise AssertionError("detect_anomaly did not raise")
print("RuntimeError:", caught)
forward = next(str(r.message) for r in records if "Traceback of forward call" in str(r.message))
print(forward.splitlines()[0])
print("forward line:", next(line.strip() for line in forward.splitlines() if "torch.sqrt" in line))

# Same numbers as the JAX tab: value 2, gradient [0.25, nan].
assert value.item() == 2.0 and grad[0].item() == 0.25 and torch.isnan(grad[1])
assert str(caught) == "Function 'SqrtBackward0' returned nan values in its 0th output."

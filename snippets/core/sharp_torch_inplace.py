"""PyTorch: in-place updates change the tensor, and every view of it."""
import torch

x = torch.arange(5.0)
alias = x  # another name for the same tensor
view = x[1:3]  # a view: shares memory with x

x[0] = 10.0  # item assignment
x.add_(1.0)  # trailing underscore: in place
x[x > 5] = 0.0  # masked assignment, in place
print("x:    ", x)
print("alias:", alias)
print("view: ", view)

assert x.tolist() == [0.0, 2.0, 3.0, 4.0, 5.0]
assert alias is x  # every name sees the change
assert view.tolist() == [2.0, 3.0]  # so does the view

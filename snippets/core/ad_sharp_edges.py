"""Two errors PyTorch users meet: integer inputs, and a (1,)-shaped loss that is not a scalar."""
import jax
import jax.numpy as jnp
import torch

errors = []
try:
    jax.grad(lambda w: w**2)(3)  # a Python int is traced as an integer array
except TypeError as err:
    errors.append(str(err))
    print("int input:", err, "\n")
print("float input works:", jax.grad(lambda w: w**2)(3.0))

w = jnp.ones(3)
try:
    jax.grad(lambda w: jnp.sum(w, keepdims=True))(w)  # shape (1,), not ()
except TypeError as err:
    errors.append(str(err))
    print("(1,) output:", err, "\n")
print("reshape(()) works:", jax.grad(lambda w: jnp.sum(w, keepdims=True).reshape(()))(w))

wt = torch.ones(3, requires_grad=True)
wt.sum(dim=0, keepdim=True).backward()  # PyTorch accepts any one-element tensor
print("PyTorch backward() on a (1,) tensor:", wt.grad)
assert len(errors) == 2
assert "grad requires real- or complex-valued inputs" in errors[0]
assert "Output had shape: (1,)" in errors[1] and "output.reshape(())" in errors[1]
assert torch.equal(wt.grad, torch.ones(3))

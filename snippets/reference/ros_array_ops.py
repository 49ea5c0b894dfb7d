"""Spot-check of array rows: each PyTorch call and its jax.numpy counterpart give equal results."""
import jax
import jax.numpy as jnp
import numpy as np
import torch

a_np = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10
t, x = torch.from_numpy(a_np.copy()), jnp.asarray(a_np)

rows = {  # name: (PyTorch result, JAX result)
    "torch.cat / jnp.concatenate": (torch.cat([t, t], dim=1), jnp.concatenate([x, x], axis=1)),
    "torch.stack / jnp.stack": (torch.stack([t, t]), jnp.stack([x, x])),
    "t.view / x.reshape": (t.view(6, 4), x.reshape(6, 4)),
    "t.permute / jnp.transpose": (t.permute(2, 0, 1), jnp.transpose(x, (2, 0, 1))),
    "t.unsqueeze / jnp.expand_dims": (t.unsqueeze(1), jnp.expand_dims(x, 1)),
    "torch.einsum / jnp.einsum": (torch.einsum("bij,bkj->bik", t, t), jnp.einsum("bij,bkj->bik", x, x)),
    "torch.where / jnp.where": (torch.where(t > 0, t, 0.0), jnp.where(x > 0, x, 0.0)),
    "t.sum(dim, keepdim) / x.sum(axis, keepdims)": (t.sum(dim=2, keepdim=True), x.sum(axis=2, keepdims=True)),
    "torch.clamp / jnp.clip": (torch.clamp(t, -1.0, 1.0), jnp.clip(x, -1.0, 1.0)),
    "torch.argmax / jnp.argmax": (torch.argmax(t, dim=-1), jnp.argmax(x, axis=-1)),
    "F.softmax / jax.nn.softmax": (torch.softmax(t, dim=-1), jax.nn.softmax(x, axis=-1)),
    "F.one_hot / jax.nn.one_hot": (torch.nn.functional.one_hot(torch.tensor([0, 2]), 3),
                                   jax.nn.one_hot(jnp.array([0, 2]), 3)),
}
for name, (tr, jr) in rows.items():
    print(f"{name:45s} shape {tuple(jr.shape)}")
    assert tuple(tr.shape) == jr.shape and np.allclose(tr.numpy(), np.asarray(jr), atol=1e-6)

# Dtype rows: the default integer differs, .to(dtype) is .astype(dtype), .item() is the same.
print("torch.arange:", torch.arange(3).dtype, "| jnp.arange:", jnp.arange(3).dtype)
assert torch.arange(3).dtype == torch.int64 and jnp.arange(3).dtype == jnp.int32
assert t.to(torch.float16).numpy().dtype == x.astype(jnp.float16).dtype == np.float16
assert t.sum().item() == x.sum().item() == float(a_np.sum())
oh_torch, oh_jax = rows["F.one_hot / jax.nn.one_hot"]  # same values, different dtypes
print("one_hot:", oh_torch.dtype, "|", oh_jax.dtype)
assert oh_torch.dtype == torch.int64 and oh_jax.dtype == jnp.float32

# t.view shares memory with t; x.reshape is a new array and nothing can change x.
c = t.clone()
v = c.view(6, 4)
c[0, 0, 0] = 99.0
print("t.view after a write to its base:", v[0, 0].item())
assert v[0, 0].item() == 99.0

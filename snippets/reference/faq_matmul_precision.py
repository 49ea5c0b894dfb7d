"""The precision of a float32 matrix product: JAX's default lets a GPU or TPU use fewer bits; PyTorch's does not."""
import re

import jax
import jax.numpy as jnp
import numpy as np
import torch

ka, kb = jax.random.split(jax.random.key(0))
a = jax.random.normal(ka, (512, 512))
b = jax.random.normal(kb, (512, 512))


def precision_in(fn):  # the precision the lowered program asks XLA for, per operand
    return re.search(r"precision = \[(\w+), (\w+)\]", jax.jit(fn).lower(a, b).as_text()).groups()


default = precision_in(lambda a, b: a @ b)
with jax.default_matmul_precision("float32"):  # for every product traced inside the block
    block = precision_in(lambda a, b: a @ b)
per_op = precision_in(lambda a, b: jnp.matmul(a, b, precision=jax.lax.Precision.HIGHEST))
print("default:", default, "| default_matmul_precision('float32'):", block, "| precision=HIGHEST:", per_op)
assert default == ("DEFAULT", "DEFAULT") and block == per_op == ("HIGHEST", "HIGHEST")

fast = jax.jit(lambda a, b: a @ b)(a, b)
exact = jax.jit(lambda a, b: jnp.matmul(a, b, precision=jax.lax.Precision.HIGHEST))(a, b)
reference = np.asarray(a, np.float64) @ np.asarray(b, np.float64)
err = lambda x: float(np.max(np.abs(np.asarray(x, np.float64) - reference)))
print(f"backend {jax.default_backend()}: max error vs float64, DEFAULT {err(fast):.1e}, HIGHEST {err(exact):.1e}")
assert err(exact) < 1e-3  # full float32 over 512 products of O(1) numbers
if jax.default_backend() == "cpu":  # XLA:CPU computes float32 products in float32 whatever the request
    assert jnp.array_equal(fast, exact)

traces = []  # the precision setting each time jax.jit traces the function


@jax.jit
def product(a, b):
    traces.append(jax.config.jax_default_matmul_precision)
    return a @ b


product(a, b)
with jax.default_matmul_precision("float32"):
    product(a, b), product(a, b)
print("traced with:", traces)
assert traces == [None, "float32"]  # the setting is part of jit's cache key: traced again, once, inside the block

# PyTorch starts at full float32 on a GPU; TF32 is opt-in.
print("torch:", torch.get_float32_matmul_precision(), "| allow_tf32:", torch.backends.cuda.matmul.allow_tf32)
assert torch.get_float32_matmul_precision() == "highest" and not torch.backends.cuda.matmul.allow_tf32

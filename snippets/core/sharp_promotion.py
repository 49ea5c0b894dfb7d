"""Result dtypes of the same mixed-type operations in NumPy, PyTorch and JAX."""
import jax.numpy as jnp
import numpy as np
import torch


def name(dtype):
    return str(dtype).replace("torch.", "")


CASES = {  # each operation is written once and run with all three frameworks
    "int32 array + 1.5": lambda m, a: a([1, 2], m.int32) + 1.5,
    "float16 array + 1.0": lambda m, a: a([1, 2], m.float16) + 1.0,
    "int32 array + float32 array": lambda m, a: a([1, 2], m.int32) + a([1, 2], m.float32),
    "uint8 array + 300": lambda m, a: a([1, 2], m.uint8) + 300,
}
frameworks = {
    "numpy": (np, lambda v, d: np.array(v, dtype=d)),
    "torch": (torch, lambda v, d: torch.tensor(v, dtype=d)),
    "jax": (jnp, lambda v, d: jnp.array(v, dtype=d)),
}
table = {}
print(f"{'':28s} {'numpy':9s} {'torch':9s} jax")
for label, op in CASES.items():
    row = {}
    for fw, (module, array) in frameworks.items():
        try:
            row[fw] = name(op(module, array).dtype)
        except OverflowError:  # NumPy 2 refuses a Python int that does not fit
            row[fw] = "error"
    table[label] = row
    print(f"{label:28s} {row['numpy']:9s} {row['torch']:9s} {row['jax']}")

assert table["int32 array + 1.5"] == {"numpy": "float64", "torch": "float32", "jax": "float32"}
assert table["float16 array + 1.0"]["jax"] == "float16"  # a Python float is weakly typed
assert table["int32 array + float32 array"] == {"numpy": "float64", "torch": "float32",
                                                "jax": "float32"}
# PyTorch agrees with JAX on every row.
assert all(row["torch"] == row["jax"] for row in table.values())
assert table["uint8 array + 300"] == {"numpy": "error", "torch": "uint8", "jax": "uint8"}
# In JAX (and PyTorch) the 300 is cast to uint8 and wraps around without a warning.
print("jnp uint8 [1, 2] + 300 ->", jnp.array([1, 2], jnp.uint8) + 300)
assert (jnp.array([1, 2], jnp.uint8) + 300).tolist() == [45, 46]

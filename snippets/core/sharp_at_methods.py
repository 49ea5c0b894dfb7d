"""Each .at[...] method, its result, and how repeated indices combine."""
import jax.numpy as jnp
import numpy as np

x = jnp.array([5.0, 1.0, 4.0, 2.0])
results = {
    "set(9)": x.at[1].set(9.0),
    "add(9)": x.at[1].add(9.0),
    "multiply(3)": x.at[1].multiply(3.0),
    "min(0)": x.at[1].min(0.0),  # minimum(x[1], 0)
    "max(3)": x.at[1].max(3.0),  # maximum(x[1], 3)
    "get()": x.at[1].get(),  # same as x[1]
}
for name, value in results.items():
    print(f"x.at[1].{name:12s} -> {value}")
assert results["set(9)"].tolist() == [5.0, 9.0, 4.0, 2.0]
assert results["add(9)"].tolist() == [5.0, 10.0, 4.0, 2.0]
assert results["multiply(3)"].tolist() == [5.0, 3.0, 4.0, 2.0]
assert results["min(0)"].tolist() == [5.0, 0.0, 4.0, 2.0]
assert results["max(3)"].tolist() == [5.0, 3.0, 4.0, 2.0]
assert float(results["get()"]) == 1.0

# Slices and index arrays work too. Repeated indices: .add applies every update...
idx = jnp.array([0, 0, 2])
counts = jnp.zeros(4).at[idx].add(1.0)
# ...while NumPy's x[idx] += 1 reads once and writes once per position.
counts_np = np.zeros(4)
counts_np[np.array(idx)] += 1.0
print("jnp .at[[0, 0, 2]].add(1):", counts, "| numpy x[[0, 0, 2]] += 1:", counts_np)
assert counts.tolist() == [2.0, 0.0, 1.0, 0.0]
assert counts_np.tolist() == [1.0, 0.0, 1.0, 0.0]
assert x.at[1:3].set(0.0).tolist() == [5.0, 0.0, 0.0, 2.0]

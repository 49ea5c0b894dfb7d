"""JAX: no error for out-of-bounds indices; reads clamp, writes are dropped; mode= changes it."""
import jax
import jax.numpy as jnp
from jax.experimental import checkify

x = jnp.arange(5.0)  # valid indices 0..4
rows = {
    "x[10]": x[10],  # read: clamped to the last element
    "x[-10]": x[-10],  # clamped to the first element
    "x.at[10].get(mode='fill')": x.at[10].get(mode="fill"),  # fill_value defaults to NaN
    "x.at[10].get(mode='fill', fill_value=-1.)": x.at[10].get(mode="fill", fill_value=-1.0),
    "x.at[10].set(99.)": x.at[10].set(99.0),  # write: dropped
    "x.at[10].set(99., mode='clip')": x.at[10].set(99.0, mode="clip"),
    "jit: x[i], i=10": jax.jit(lambda x, i: x[i])(x, 10),  # same rules for traced indices
}
for name, value in rows.items():
    print(f"{name:41s} -> {value}")
assert float(rows["x[10]"]) == 4.0 and float(rows["x[-10]"]) == 0.0
# A NaN fill (the default for floats) makes a bad index visible later instead of silently
# reading a real value; fill_value chooses another.
assert bool(jnp.isnan(rows["x.at[10].get(mode='fill')"]))
assert float(rows["x.at[10].get(mode='fill', fill_value=-1.)"]) == -1.0
assert rows["x.at[10].set(99.)"].tolist() == x.tolist()  # nothing changed
assert rows["x.at[10].set(99., mode='clip')"].tolist() == [0.0, 1.0, 2.0, 3.0, 99.0]
assert float(rows["jit: x[i], i=10"]) == 4.0

# To get an error instead, add index checks with checkify (it works under jit).
checked = jax.jit(checkify.checkify(lambda x, i: x[i], errors=checkify.index_checks))
error, _ = checked(x, 10)
print("checkify:", error.get())
assert "out-of-bounds indexing" in error.get()

"""Save params, optimizer state, step and key to one file, restore them, and resume exactly."""
import pathlib
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import serialization

kx, kw, key = jax.random.split(jax.random.key(0), 3)
x = jax.random.normal(kx, (32, 3))
y = x @ jnp.array([1.0, -2.0, 0.5])
tx = optax.adam(0.1)


@jax.jit
def train_step(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p["w"] - y) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


params = {"w": jax.random.normal(kw, (3,))}
opt_state = tx.init(params)
for _ in range(5):
    params, opt_state = train_step(params, opt_state, x, y)

# A typed key cannot be serialized as it is ...
try:
    serialization.to_bytes({"key": key})
except TypeError as err:
    print(f"to_bytes(typed key): {type(err).__name__}: {str(err).splitlines()[0]}")
else:
    raise AssertionError("a typed key was serialized")
# ... so everything the run needs goes into one pytree, with the key as its raw words.
state = {"params": params, "opt_state": opt_state, "step": 5, "key": jax.random.key_data(key)}
with tempfile.TemporaryDirectory() as tmp:
    path = pathlib.Path(tmp) / "ckpt.msgpack"
    path.write_bytes(serialization.to_bytes(state))
    print("saved", path.stat().st_size, "bytes")
    data = path.read_bytes()

# Restoring needs a template with the same structure: a fresh init gives one.
template = {"params": params, "opt_state": tx.init(params), "step": 0, "key": jax.random.key_data(key)}
restored = serialization.from_bytes(template, data)
print("restored step:", restored["step"], "| state type:", type(restored["opt_state"][0]).__name__)
assert jax.tree.all(jax.tree.map(np.array_equal, restored, state))
assert jnp.array_equal(jax.random.wrap_key_data(restored["key"]), key)

# Resuming from the file gives exactly the step the original run would have taken.
a, _ = train_step(params, opt_state, x, y)
b, _ = train_step(restored["params"], restored["opt_state"], x, y)
assert jnp.array_equal(a["w"], b["w"])
print("next step identical:", a["w"])

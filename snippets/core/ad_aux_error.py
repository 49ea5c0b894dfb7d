"""jax.grad needs one scalar output: a (loss, metric) tuple or a vector raises a TypeError."""
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)
x = rng.normal(size=(4, 3)).astype(np.float32)
y = np.array([1.0, -1.0, 1.0, -1.0], np.float32)
w = np.ones(3, np.float32)


def loss_and_accuracy(w, x, y):  # returns a tuple, as a training step often wants
    pred = x @ w
    return jnp.mean((pred - y) ** 2), jnp.mean(jnp.sign(pred) == y)


def per_example_loss(w, x, y):  # returns one loss per example: shape (4,)
    return (x @ w - y) ** 2


errors = {}
for name, fn in [("tuple", loss_and_accuracy), ("vector", per_example_loss)]:
    try:
        jax.grad(fn)(w, x, y)
    except TypeError as err:
        errors[name] = str(err)
        print(f"{name}: TypeError: {err}\n")

assert set(errors) == {"tuple", "vector"}
assert all(e.startswith("Gradient only defined for scalar-output functions.") for e in errors.values())
assert "Output had shape: (4,)" in errors["vector"]

"""jax.checkpoint recomputes a block's intermediates in the backward pass: same gradient."""
import contextlib
import io
import re

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import print_saved_residuals


def block(x):
    for _ in range(3):
        x = jnp.sin(jnp.sin(x))
    return x


def loss(x):
    return jnp.sum(block(x))


def loss_remat(x):
    return jnp.sum(jax.checkpoint(block)(x))  # same maths, different memory plan


def saved(f, x):  # what the forward pass keeps for the backward pass, without file names
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_saved_residuals(f, x)
    return [re.sub(r" from \S+ \(\w+\)$", "", line) for line in out.getvalue().splitlines()]


def sin_count(f, x):  # sin operations in the whole gradient program
    return len(re.findall(r"\bsin\b", str(jax.make_jaxpr(jax.grad(f))(x))))


x = jnp.linspace(0.0, 1.0, 5)
print("gradient, plain:     ", jax.grad(loss)(x))
print("gradient, checkpoint:", jax.grad(loss_remat)(x))
for name, f in [("plain", loss), ("checkpoint", loss_remat)]:
    kept = saved(f, x)
    print(f"{name}: {len(kept)} saved for backward {sorted(set(kept))}, sin ops in grad: {sin_count(f, x)}")
assert jnp.allclose(jax.grad(loss)(x), jax.grad(loss_remat)(x), atol=1e-6)
assert saved(loss_remat, x) == ["f32[5] from the argument x"]  # only the block's input is kept
assert saved(loss, x) == ["f32[5] output of cos"] * 6  # one cosine for each of the 6 sins
assert sin_count(loss_remat, x) > sin_count(loss, x)  # the forward sins run again backward

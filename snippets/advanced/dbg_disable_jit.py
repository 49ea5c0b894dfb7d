"""jax.disable_jit runs a jitted function as plain Python, so print, if and pdb see values."""
import contextlib
import io

import jax
import jax.numpy as jnp


@jax.jit
def running_product(xs):
    def step(carry, x):
        carry = carry * x
        print("step: carry =", carry)  # a plain Python print
        return carry, carry

    return jax.lax.scan(step, 1.0, xs)[1]


xs = jnp.array([2.0, 3.0, 4.0])
printed = {}
for mode in ("jit", "disable_jit"):
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        with jax.disable_jit() if mode == "disable_jit" else contextlib.nullcontext():
            out = running_product(xs)
    printed[mode] = captured.getvalue().splitlines()
    print(f"{mode}: {printed[mode]} -> {out}")
    assert jnp.array_equal(out, jnp.array([2.0, 6.0, 24.0]))

# Compiled: the body is traced once and print sees a tracer.
assert len(printed["jit"]) == 1 and "Tracer" in printed["jit"][0]
# With jit disabled: jit and scan run in Python, one print per step with values.
assert printed["disable_jit"] == ["step: carry = 2.0", "step: carry = 6.0", "step: carry = 24.0"]

# jax.grad still traces under disable_jit: print sees a tracer that carries the value.
captured = io.StringIO()
with jax.disable_jit(), contextlib.redirect_stdout(captured):
    jax.grad(lambda v: print("inside grad:", v) or v**2)(3.0)
print(captured.getvalue().strip())
assert "Tracer(primal=3.0" in captured.getvalue()
captured = io.StringIO()  # jax.vmap traces too
with jax.disable_jit(), contextlib.redirect_stdout(captured):
    jax.vmap(lambda v: print("inside vmap:", v) or v)(jnp.ones(2))
print(captured.getvalue().strip())
assert "Tracer" in captured.getvalue()
assert not jax.config.jax_disable_jit  # the context manager restored the setting

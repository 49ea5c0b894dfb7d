"""jax.grad goes through fori_loop with static bounds, but not through while_loop."""
import jax
import jax.numpy as jnp


def power_fori(x, n):
    return jax.lax.fori_loop(0, n, lambda i, acc: acc * x, jnp.ones_like(x))


def power_while(x, n):
    _, acc = jax.lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * x), (0, jnp.ones_like(x)))
    return acc


x, n = 2.0, 3  # d/dx x**3 = 3 x**2 = 12
print("grad, fori_loop with static bounds:", jax.grad(power_fori)(x, n))
assert jax.grad(power_fori)(x, n) == 12.0


def reverse_mode_error(fn):
    try:
        fn()
    except ValueError as err:
        return err


errors = {
    "grad of while_loop": reverse_mode_error(lambda: jax.grad(power_while)(x, n)),
    # Under jit, n is traced, so fori_loop falls back to a while_loop.
    "grad of fori_loop, traced bounds": reverse_mode_error(lambda: jax.jit(jax.grad(power_fori))(x, n)),
}
for what, err in errors.items():
    print(f"{what}: {type(err).__name__}: {err}")
    assert isinstance(err, ValueError)
    assert "Reverse-mode differentiation does not work for lax.while_loop" in str(err)

# Forward mode (jax.jvp) works through while_loop: one tangent travels with the carry.
_, tangent = jax.jvp(lambda x: power_while(x, n), (x,), (1.0,))
print("jvp through while_loop:", tangent)
assert tangent == 12.0

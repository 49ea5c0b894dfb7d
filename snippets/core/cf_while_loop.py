"""jax.lax.while_loop repeats until a traced condition fails: the trip count depends on the data."""
import jax
import jax.numpy as jnp

traces = []  # a trace-time side effect: counts how often jit traces (and compiles)


@jax.jit
def newton_sqrt(a):
    traces.append(None)

    def keep_going(carry):
        y, steps = carry
        return (jnp.abs(y * y - a) > 1e-6 * a) & (steps < 50)  # a traced bool; 50 is a safety cap

    def step(carry):
        y, steps = carry
        return 0.5 * (y + a / y), steps + 1  # same shapes and dtypes as the carry it got

    return jax.lax.while_loop(keep_going, step, (a, 0))


steps = []
for a in (2.0, 1e4):
    root, n = newton_sqrt(jnp.float32(a))
    print(f"sqrt({a:g}) = {float(root):.4f} after {int(n)} steps")
    assert jnp.isclose(root, jnp.sqrt(a))
    steps.append(int(n))
# One trace, one compiled program, and a different number of steps for each input.
print("traces:", len(traces))
assert len(traces) == 1 and steps[0] < steps[1]

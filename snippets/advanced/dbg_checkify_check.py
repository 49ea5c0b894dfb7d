"""checkify.check adds your own run-time assertion; under vmap the error names the example."""
import jax
import jax.numpy as jnp
from jax.experimental import checkify


def safe_sqrt(x):
    checkify.check(x >= 0, "expected x >= 0, got {x}", x=x)  # formatted at run time
    return jnp.sqrt(x)


checked = jax.jit(checkify.checkify(safe_sqrt))  # user_checks is the default
err, _ = checked(-4.0)
print("scalar:", err.get())
err_batch, out = jax.vmap(checked)(jnp.array([1.0, -9.0, 4.0]))
print("vmap:  ", err_batch.get())
print("outputs:", out)

assert err.get().startswith("expected x >= 0, got -4.0")
assert err_batch.get().startswith("at mapped index 1: expected x >= 0, got -9.0")
assert out[0] == 1.0 and out[2] == 2.0  # the other examples still return their results

# A check that was not functionalized cannot be staged out by jit.
try:
    jax.jit(safe_sqrt)(1.0)
except ValueError as exc:
    print("without checkify:", str(exc).split(". ")[0])
    assert "without functionalizing it through `checkify.checkify`" in str(exc)
else:
    raise AssertionError("jit accepted an unfunctionalized check")

"""jax.lax.fori_loop counts from lower to upper; static bounds give a scan, traced bounds a while."""
import jax
import jax.numpy as jnp


def power(x, n):
    # body(i, carry) -> new carry; here the carry is the running product.
    return jax.lax.fori_loop(0, n, lambda i, acc: acc * x, jnp.ones_like(x))


x = jnp.float32(1.5)
print("power(1.5, 4) =", power(x, 4))
assert jnp.isclose(power(x, 4), x**4)


def primitives(fn, *args):
    return [eqn.primitive.name for eqn in jax.make_jaxpr(fn)(*args).eqns]


static = primitives(lambda x: power(x, 4), x)  # 4 is a Python int
traced = primitives(power, x, 4)  # make_jaxpr traces n too
print("static bounds:", static, "| traced bounds:", traced)
assert "scan" in static and "while" not in static
assert "while" in traced and "scan" not in traced

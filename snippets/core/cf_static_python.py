"""Python `if` and `for` on static values run while jit traces: the program holds only what ran."""
import jax
import jax.numpy as jnp


def layers(x, n, activation):
    for _ in range(n):  # n is a Python int: the loop runs at trace time
        x = 2.0 * x
        if activation == "relu":  # a Python string: decided at trace time too
            x = jnp.maximum(x, 0.0)
    return x


# Static arguments are Python values, not tracers, so `range` and `==` just work.
fast = jax.jit(layers, static_argnames=("n", "activation"))
x = jnp.array([-1.0, 0.5])
print("relu:", fast(x, n=3, activation="relu"))
print("none:", fast(x, n=3, activation="none"))
assert jnp.allclose(fast(x, n=3, activation="relu"), jnp.array([0.0, 4.0]))
assert jnp.allclose(fast(x, n=3, activation="none"), jnp.array([-8.0, 4.0]))

# The traced program: three copies of the body, no loop and no branch left.
jaxpr = jax.make_jaxpr(layers, static_argnums=(1, 2))(x, 3, "relu")
print(jaxpr)
names = [eqn.primitive.name for eqn in jaxpr.eqns]
assert names.count("mul") == 3 and names.count("max") == 3
assert not {"cond", "while", "scan"} & set(names)
# The other string took the other path: no `max` was traced at all.
names_none = [e.primitive.name for e in jax.make_jaxpr(layers, static_argnums=(1, 2))(x, 3, "none").eqns]
assert names_none.count("mul") == 3 and "max" not in names_none
# Reverse mode sees the unrolled program: d/dx of 2*2*2*x is 8.
assert jnp.allclose(jax.grad(lambda x: fast(x, n=3, activation="none").sum())(x), 8.0)

"""keep_unused=True keeps an unused argument in the compiled program; the default may drop it."""
import jax
import jax.numpy as jnp


def f(x, unused):
    return x * 2  # `unused` never reaches the result


x, unused = jnp.ones(3), jnp.zeros(5)
for keep in (False, True):
    lowered = jax.jit(f, keep_unused=keep).lower(x, unused)
    main = next(line for line in lowered.as_text().splitlines() if "@main" in line)
    n_params = main.count("%arg")
    print(f"keep_unused={keep!s:5}: {n_params} parameter(s) ->", main.strip()[:70])
    assert n_params == (2 if keep else 1)
    # Either way, you call the function with both arguments.
    assert jnp.array_equal(jax.jit(f, keep_unused=keep)(x, unused), x * 2)

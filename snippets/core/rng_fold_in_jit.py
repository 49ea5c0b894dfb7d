"""fold_in takes a traced step number under jit (one compilation), but only a scalar."""
import jax
import jax.numpy as jnp

base = jax.random.key(0)
traces = []  # a trace-time side effect, used only to count compilations


@jax.jit
def noise_at(key, step):
    traces.append(step)
    return jax.random.normal(jax.random.fold_in(key, step), (2,))


draws = jnp.stack([noise_at(base, step) for step in range(5)])
print(draws)
print("steps:", len(draws), "| traces:", len(traces))
assert len(traces) == 1  # the step is an ordinary traced int32, not a static value
assert len({tuple(row.tolist()) for row in draws}) == 5  # five different draws

# fold_in mixes in one integer; a vector of steps is an error.
caught = None
try:
    jax.random.fold_in(base, jnp.arange(3))
except TypeError as err:
    caught = err
print("fold_in(key, arange(3)):", caught)
assert "fold_in accepts a scalar" in str(caught)
# For many integers at once, map over them.
batch = jax.vmap(jax.random.fold_in, in_axes=(None, 0))(base, jnp.arange(3))
assert batch.shape == (3,)

"""Count XLA compilations with jax.monitoring, catch a miss the explanation misses, forbid re-tracing."""
import logging

import jax
import jax.numpy as jnp

compiles = []  # XLA compilations in this process, as JAX's monitoring reports them
jax.monitoring.register_event_duration_secs_listener(
    lambda event, secs, **kwargs: compiles.append(event)
    if event == "/jax/core/compile/backend_compile_duration" else None)

explanations = []  # what jax_explain_cache_misses logs, kept instead of printed


class Keep(logging.Handler):
    def emit(self, record):
        explanations.append(record.getMessage())


logger = logging.getLogger("jax")
logger.addHandler(Keep())
logger.propagate = False
jax.config.update("jax_explain_cache_misses", True)


@jax.jit
def step(w, x):
    return w - 0.1 * jax.grad(lambda w: jnp.mean(jnp.tanh(x @ w) ** 2))(w)


k1, k2 = jax.random.split(jax.random.key(0))
w, x = jax.random.normal(k1, (8, 8)), jax.random.normal(k2, (4, 8))  # made by JAX: not committed
x_on_device = jax.device_put(x, jax.devices()[0])  # the same values, committed to device 0
longer = jnp.ones((5, 8))  # every input made before the guard below: making one may compile too

start = len(compiles)
w = step(w, x)  # warm-up: trace and compile
warm_up = len(compiles) - start
for _ in range(5):  # the steady state: the same shapes, dtypes and placement
    w = step(w, x)
steady = len(compiles) - warm_up - start
print(f"XLA compilations: warm-up {warm_up}, next 5 steps {steady}")
assert warm_up == 1 and steady == 0

explanations.clear()
step(w, x_on_device)  # committed to a device: a new cache entry, but no tracing-cache miss
silent = len(compiles) - start - warm_up
print(f"committed input: {silent} more compilation(s), explanations logged: {len(explanations)}")
if jax.default_backend() == "cpu":  # seen on the CPU: placement is not in the explanation
    assert silent == 1 and explanations == []

jax.config.update("jax_no_tracing", True)  # from here on, a call that would trace raises
w = step(w, x)  # cached: runs as before
try:
    step(w, longer)  # a new shape would trace again
except RuntimeError as err:
    message = str(err)
finally:
    jax.config.update("jax_no_tracing", False)
print("with jax_no_tracing:", message.split(" at ")[0], "for", message.split(" for ")[-1])
assert "'no_tracing' is set" in message

"""io_callback keeps side effects that pure_callback may drop; ordered=True keeps them in program order."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

log = []


def record(tag, x):
    log.append((tag, float(x)))
    return np.asarray(x)  # return the input so that both callbacks have an output


def scalar():
    return jax.ShapeDtypeStruct((), jnp.float32)


@jax.jit
def step(x):
    jax.pure_callback(lambda v: record("pure", v), scalar(), x)  # result unused
    io_callback(lambda v: record("io", v), scalar(), x, ordered=True)  # result unused
    y = x * 2.0
    io_callback(lambda v: record("io", v), scalar(), y, ordered=True)
    return y + 1.0


for i in range(3):
    step(jnp.float32(i))
jax.effects_barrier()  # wait until every callback of the dispatched calls has run
print(log)
assert [tag for tag, _ in log] == ["io"] * 6  # the unused pure_callback was removed
assert [v for _, v in log] == [0.0, 0.0, 1.0, 2.0, 2.0, 4.0]  # program order, call after call

try:  # an ordered effect cannot be batched: vmap would have to choose an order
    jax.vmap(lambda v: io_callback(lambda a: a, scalar(), v, ordered=True))(jnp.ones(3))
except ValueError as err:
    print("vmap of an ordered io_callback:", err)
    assert "Cannot `vmap` ordered IO callback" in str(err)
else:
    raise AssertionError("expected ValueError")

log.clear()  # unordered, it batches: one call per example
jax.vmap(lambda v: io_callback(lambda a: record("io", a), scalar(), v))(jnp.arange(3.0))
jax.effects_barrier()
print("vmap of an unordered io_callback, calls:", len(log))
assert sorted(v for _, v in log) == [0.0, 1.0, 2.0]

for ordered in (False, True):  # neither kind has a derivative rule
    try:
        jax.grad(lambda v: io_callback(lambda a: a, scalar(), v, ordered=ordered))(jnp.float32(1.0))
    except ValueError as err:
        assert "IO callbacks do not support JVP" in str(err)
    else:
        raise AssertionError("expected ValueError")

"""Older NNX spellings still run in Flax 0.12.12, but warn and name their replacement."""
import warnings
import jax
import jax.numpy as jnp
from flax import nnx

model = nnx.Linear(2, 3, rngs=nnx.Rngs(0))
state = nnx.state(model)


def old_call(f):  # run an old spelling, return its result and its warning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = f()
    assert [w.category for w in caught] == [DeprecationWarning]
    return result, " ".join(str(caught[0].message).split())


checks = [  # (old spelling, old call, current call, text the warning must contain)
    ("v.value", lambda: model.kernel.value, lambda: model.kernel[...], "variable[...]"),
    ("state.filter(f)", lambda: state.filter(nnx.Param),
     lambda: nnx.filter_state(state, nnx.Param), "nnx.filter_state"),
    ("state.flat_state()", lambda: [p for p, _ in state.flat_state()],
     lambda: [p for p, _ in nnx.to_flat_state(state)], "nnx.to_flat_state"),
    ("state.to_pure_dict()", lambda: state.to_pure_dict(),
     lambda: nnx.to_pure_dict(state), "nnx.to_pure_dict"),
    ("m.iter_modules()", lambda: [p for p, _ in model.iter_modules()],
     lambda: [p for p, _ in nnx.iter_modules(model)], "nnx.iter_modules(m)"),
]
for name, old, new, replacement in checks:
    result, message = old_call(old)
    print(f"{name:22s} DeprecationWarning, points to {replacement}")
    assert replacement in message, message
    if isinstance(result, list):  # lists of paths
        assert result == new() and len(result) > 0
    else:  # the replacement gives the same arrays
        assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, result, new())))

_, message = old_call(lambda: state.filter(nnx.Param))
assert "replaced by the built-in Python dict" in message  # why the State methods go away

_, message = old_call(lambda: setattr(model.bias, "value", jnp.zeros(3)))
print(f"{'v.value = x':22s} DeprecationWarning, points to variable[...] = value")
assert "variable[...] = value" in message and jnp.array_equal(model.bias[...], jnp.zeros(3))

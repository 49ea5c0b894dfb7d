"""Which old JAX and optax names are gone, which still warn, and whether each replacement exists."""
import importlib
import warnings

import jax
import jax.numpy as jnp


def present(path):
    """True if the dotted name can be imported or looked up."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):  # the longest importable module, then attributes
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):  # a removed name raises AttributeError
                return False
            obj = getattr(obj, attr)
        return True
    return False


removed = {  # old name -> replacement
    "jax.tree_map": "jax.tree.map", "jax.tree_leaves": "jax.tree.leaves",
    "jax.tree_flatten": "jax.tree.flatten", "jax.tree_unflatten": "jax.tree.unflatten",
    "jax.tree_structure": "jax.tree.structure", "jax.tree_transpose": "jax.tree.transpose",
    "jax.treedef_is_leaf": "jax.tree_util.treedef_is_leaf",
    "jax.numpy.DeviceArray": "jax.Array", "jax.interpreters.pxla.ShardedDeviceArray": "jax.Array",
    "jax.experimental.maps": "jax.shard_map",
    "jax.device_put_replicated": "jax.device_put", "jax.device_put_sharded": "jax.device_put",
    "jax.sharding.PmapSharding": "jax.sharding.NamedSharding",
    "jax.sharding.use_mesh": "jax.set_mesh",
    "optax.maybe_update": "optax.conditionally_transform",
}
gone = ["optax.monte_carlo"]  # removed without a replacement in optax
deprecated = {  # still there, but the first access warns and names the replacement
    "jax.experimental.pjit.pjit": "jax.jit",
    "jax.experimental.shard_map.shard_map": "jax.shard_map",
    "optax.tree_utils.tree_l2_norm": "optax.tree_utils.tree_norm",
}

for old, new in removed.items():
    assert not present(old), old
    assert present(new), new
    print(f"{old:41} removed     -> {new} present")
for old in gone:
    assert not present(old), old
    print(f"{old:41} removed     -> no replacement")
for old, new in deprecated.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert present(old), old
    messages = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    assert any(new in m for m in messages), (old, messages)
    assert present(new), new
    print(f"{old:41} deprecated  -> {new} present")

# `with mesh:` still works but warns; jax.make_mesh now defaults to Explicit axes, a hand-built Mesh to Auto.
one_device = jax.devices()[:1]
mesh = jax.sharding.Mesh(one_device, ("x",))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with mesh:
        pass
assert any(issubclass(w.category, DeprecationWarning) and "jax.set_mesh" in str(w.message) for w in caught)
print(f"{'with mesh:':41} deprecated  -> jax.set_mesh present")
assert present("jax.set_mesh")
made = jax.make_mesh((1,), ("x",), devices=one_device)
print(f"{'axis_types':41} make_mesh {made.axis_types[0]} | Mesh {mesh.axis_types[0]}")
assert made.axis_types == (jax.sharding.AxisType.Explicit,)
assert mesh.axis_types == (jax.sharding.AxisType.Auto,)

# The legacy key constructor is not deprecated: it works without a warning.
with warnings.catch_warnings():
    warnings.simplefilter("error")
    legacy = jax.random.PRNGKey(0)
assert legacy.dtype == jnp.uint32 and legacy.shape == (2,)
assert present("jax.random.key")
print(f"{'jax.random.PRNGKey':41} legacy      -> jax.random.key present")

"""spmd_axis_name: the batch axis that vmap adds is sharded over a named mesh axis."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too

# Auto axes: the compiler chooses shardings, guided by the constraints we write.
mesh = jax.make_mesh((len(devices) // 2, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2, devices=devices)


def layer(w, x):  # one example: x (3,) -> (6,), its features split over "model"
    h = jax.lax.with_sharding_constraint(x @ w, NamedSharding(mesh, P("model")))
    return jnp.tanh(h)


w, xs = jnp.ones((3, 6)), jnp.ones((8, 3))
for name in (None, "data"):
    batched = jax.vmap(layer, in_axes=(None, 0), spmd_axis_name=name)
    jaxpr = jax.make_jaxpr(batched)(w, xs)
    constraint = next(e for e in jaxpr.eqns if e.primitive.name == "sharding_constraint")
    spec = constraint.params["sharding"].spec
    out = jax.jit(batched)(w, xs)
    print(f"spmd_axis_name={name!r}: constraint {spec}, output {out.shape} {out.sharding.spec}")
    if name is None:  # the new batch axis is left to the compiler
        assert spec == P(P.UNCONSTRAINED, "model")
    else:  # the new batch axis is split over the "data" mesh axis
        assert spec == P("data", "model") and out.sharding.is_equivalent_to(NamedSharding(mesh, spec), 2)

# Explicit axes (the default of jax.make_mesh): the input's sharding already names the axis.
explicit = jax.make_mesh((len(devices) // 2, 2), ("data", "model"), devices=devices)
with jax.set_mesh(explicit):
    xs_split = jax.device_put(xs, P("data"))  # the batch axis is split over "data"
    out = jax.jit(jax.vmap(lambda x: jnp.tanh(x @ w)))(xs_split)
    print("explicit mesh, no spmd_axis_name:", out.sharding.spec)
    assert out.sharding.spec[0] == "data"
    caught = None
    try:  # naming a different mesh axis contradicts the input's sharding
        jax.vmap(lambda x: jnp.tanh(x @ w), spmd_axis_name="model")(xs_split)
    except ValueError as err:
        caught = err
        print("ValueError:", err)
assert caught is not None and "Only one of spmd_axis_name or arrays sharded" in str(caught)

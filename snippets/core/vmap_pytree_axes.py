"""in_axes and out_axes can be pytrees: a dict of axes for a dict argument, a tuple for outputs."""
import jax
import jax.numpy as jnp


def loss(params, batch):  # one example: batch["x"] (3,), batch["y"] a scalar
    pred = batch["x"] @ params["w"] + params["b"]
    err = batch["scale"] * (pred - batch["y"]) ** 2
    return err, jnp.sum(params["w"] ** 2)  # (per-example loss, a weight penalty)


params = {"w": jnp.array([1.0, -1.0, 0.5]), "b": jnp.array(0.1)}
batch = {"x": jnp.arange(15.0).reshape(5, 3), "y": jnp.arange(5.0), "scale": jnp.array(2.0)}
# The axes mirror the arguments: params shared, x and y mapped on axis 0, scale shared.
in_axes = (None, {"x": 0, "y": 0, "scale": None})
# The first output varies over the batch (axis 0); the penalty does not (None: keep one copy).
per_example, penalty = jax.vmap(loss, in_axes=in_axes, out_axes=(0, None))(params, batch)
print("per-example loss:", per_example.shape, per_example)
print("penalty:", penalty.shape, penalty)
assert per_example.shape == (5,) and penalty.shape == ()
pred = jnp.sum(batch["x"] * params["w"], axis=1) + params["b"]
assert jnp.allclose(per_example, 2.0 * (pred - batch["y"]) ** 2)

# With the default out_axes=0, the unmapped penalty is copied once per example instead.
_, copies = jax.vmap(loss, in_axes=in_axes)(params, batch)
print("penalty with out_axes=0:", copies.shape)
assert copies.shape == (5,) and jnp.allclose(copies, penalty)

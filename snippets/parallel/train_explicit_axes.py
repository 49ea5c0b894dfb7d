"""On Explicit axes, the Megatron layer pair needs out_sharding: JAX will not guess the all-reduce."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import AxisType, NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too
jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks

kx, k1, k2, k3 = jax.random.split(jax.random.key(0), 4)
x = jax.random.normal(kx, (64, 16))
y = jnp.sin(x.sum(axis=1, keepdims=True) / 4)
params = [{"w": jax.random.normal(k1, (16, 64)) / 4, "b": jnp.zeros(64)},
          {"w": jax.random.normal(k2, (64, 64)) / 8, "b": jnp.zeros(64)},
          {"w": jax.random.normal(k3, (64, 1)) / 8, "b": jnp.zeros(1)}]


def loss_fn(params, x, y, layer2_out=None):  # layer2_out: the sharding of layer 2's output
    h = jnp.tanh(x @ params[0]["w"] + params[0]["b"])
    h = jnp.tanh(jnp.matmul(h, params[1]["w"], out_sharding=layer2_out) + params[1]["b"])
    return jnp.mean((h @ params[2]["w"] + params[2]["b"] - y) ** 2)


ref_loss, ref_grads = jax.value_and_grad(loss_fn)(params, x, y)  # one device

mesh_shape = (2, len(devices) // 2) if len(devices) > 2 else (1, 2)  # 2 x 4 on 8 devices; mp has at least 2
mesh = jax.make_mesh(mesh_shape, ("dp", "mp"), devices=devices)  # jax.make_mesh's default: Explicit axes
assert mesh.axis_types == (AxisType.Explicit, AxisType.Explicit)
specs = [{"w": P(None, "mp"), "b": P("mp")}, {"w": P("mp", None), "b": P()}, {"w": P(), "b": P()}]
params_d = jax.device_put(params, jax.tree.map(lambda s: NamedSharding(mesh, s), specs))
x_d, y_d = jax.device_put((x, y), NamedSharding(mesh, P("dp", None)))
grad_fn = jax.jit(jax.value_and_grad(loss_fn), static_argnums=3)

try:  # layer 2 sums over its inputs, which are split over mp: how should the result be split?
    grad_fn(params_d, x_d, y_d)
except Exception as err:  # JAX's ShardingTypeError
    print(type(err).__name__ + ":", str(err).split(". ")[0])
    assert type(err).__name__ == "ShardingTypeError" and "out_sharding" in str(err)
else:
    raise AssertionError("an Explicit mesh should refuse the ambiguous matmul")

with jax.set_mesh(mesh):  # out_sharding takes a bare PartitionSpec under this mesh
    loss, grads = grad_fn(params_d, x_d, y_d, P("dp", None))  # rows over dp, summed over mp
print("layer-2 kernel gradient:", jax.typeof(grads[1]["w"]))
print("loss:", float(loss), "| one device:", float(ref_loss))
assert grads[1]["w"].sharding.spec == P("mp", None)  # the gradient has the parameter's layout
assert jnp.allclose(loss, ref_loss, rtol=1e-5)
assert all(jnp.allclose(a, b, rtol=1e-4, atol=1e-6)
           for a, b in zip(jax.tree.leaves(grads), jax.tree.leaves(ref_grads)))

# The data-parallel layout needs no out_sharding on Explicit axes: nothing is ambiguous.
dp_mesh = jax.make_mesh((len(devices),), ("data",), devices=devices)
rows = NamedSharding(dp_mesh, P("data", None))
dp_loss, _ = grad_fn(*jax.device_put((params, x, y), (NamedSharding(dp_mesh, P()), rows, rows)))
print("data parallel on Explicit axes, loss:", float(dp_loss))
assert jnp.allclose(dp_loss, ref_loss, rtol=1e-5)

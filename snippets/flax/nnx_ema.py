"""nnx.EMA: a moving average of the weights, updated in the jitted train step, used for evaluation."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx

model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.1, momentum=0.9), wrt=nnx.Param)
ema = nnx.EMA(model, decay=0.9, only=nnx.Param)  # a copy of the Params, averaged from now on
ema_model = ema.apply_to(model)  # the model with the EMA's variables in place of its Params


@nnx.jit
def train_step(model, optimizer, ema, x, y):
    grads = nnx.grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    ema.update(model)  # ema = decay * ema + (1 - decay) * weights, for every tracked Param


@nnx.jit
def predict(model, x):
    return model(x)


x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
y = jnp.ones((4, 1))
expected = model.kernel[...]
for _ in range(5):
    train_step(model, optimizer, ema, x, y)
    expected = 0.9 * expected + 0.1 * model.kernel[...]  # the same average, by hand

print("EMA tracks:", jax.tree.map(jnp.shape, nnx.to_pure_dict(ema.params)))
print("kernel:    ", [f"{v:.3f}" for v in model.kernel[...].ravel()])
print("EMA kernel:", [f"{v:.3f}" for v in ema_model.kernel[...].ravel()])
print("eval with the EMA weights:", [f"{v:.3f}" for v in predict(ema_model, x).ravel()])
assert ema_model.kernel is ema.params["kernel"]  # a view of the EMA, not a copy
assert jnp.allclose(ema_model.kernel[...], expected, atol=1e-6)  # built before training, still current
assert not jnp.allclose(ema_model.kernel[...], model.kernel[...])
assert jnp.allclose(predict(ema_model, x), x @ expected + ema.params["bias"][...], atol=1e-6)

"""Linen's train flag: eval mode is deterministic, train mode needs a dropout key and mutable."""
import jax
import jax.numpy as jnp
from flax import linen as nn

# Exact float32 products on every backend: at a TPU's default (one bfloat16 pass) a batch of 1 and a
# batch of 4 need not be multiplied alike, and row 0 would match only to about 1e-3.
jax.config.update("jax_default_matmul_precision", "highest")


class CNN(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Conv(features=16, kernel_size=(3, 3))(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.max_pool(nn.relu(x), window_shape=(2, 2), strides=(2, 2))
        x = nn.Dropout(rate=0.5, deterministic=not train)(x.reshape(x.shape[0], -1))
        return nn.Dense(features=10)(x)


model = CNN()
x = jax.random.uniform(jax.random.key(1), (4, 8, 8, 1))
variables = model.init(jax.random.key(0), x, train=False)

# Eval mode: no key, nothing mutable, the same output every time, each example on its own.
ev = model.apply(variables, x, train=False)
assert jnp.array_equal(ev, model.apply(variables, x, train=False))
alone = float(jnp.abs(ev[:1] - model.apply(variables, x[:1], train=False)).max())
print(f"eval: two calls equal exactly; x[:1] alone differs from row 0 of the batch by {alone:.1e} (atol 1e-6)")
assert alone < 1e-6


def train_out(stream, seed):  # one training-mode forward pass
    out, _ = model.apply(variables, x, train=True, mutable=["batch_stats"],
                         rngs={stream: jax.random.key(seed)})
    return out


same = jnp.array_equal(train_out("dropout", 1), train_out("dropout", 1))
differ = not jnp.allclose(train_out("dropout", 1), train_out("dropout", 2))
print(f"train: same dropout key gives the same output: {same}; keys 1 and 2 differ: {differ}")
assert same and differ
# With no "dropout" key, Dropout silently draws its mask from the "params" key instead.
assert jnp.array_equal(train_out("params", 1), train_out("dropout", 1))


def error_of(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:
        return e


mistakes = {  # each call gets one thing wrong
    "train without rngs": (model.apply, dict(mutable=["batch_stats"], train=True)),
    "train without mutable": (model.apply, dict(rngs={"dropout": jax.random.key(1)}, train=True)),
    "jit with a traced train": (jax.jit(model.apply), dict(train=False)),
}
found = {name: error_of(fn, variables, x, **kw) for name, (fn, kw) in mistakes.items()}
for name, error in found.items():
    print(f"{name}:\n  {type(error).__name__}: {str(error).splitlines()[0]}")
assert [type(e).__name__ for e in found.values()] == ["InvalidRngError", "ModifyScopeVariableError",
                                                      "TracerBoolConversionError"]
jitted = jax.jit(model.apply, static_argnames="train")  # train is a Python bool again
assert jnp.allclose(jitted(variables, x, train=False), ev, atol=1e-6)

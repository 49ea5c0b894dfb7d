"""jax.vmap turns a function written for one example into one that takes a batch."""
import jax
import jax.numpy as jnp


def predict(params, x):  # written for ONE example: x has shape (3,)
    return jnp.tanh(x @ params["w"] + params["b"])


k1, k2 = jax.random.split(jax.random.key(0))
params = {"w": jax.random.normal(k1, (3, 2)), "b": jnp.zeros(2)}
xs = jax.random.normal(k2, (5, 3))  # a batch of 5 examples

one = predict(params, xs[0])
# in_axes=(None, 0): share `params` across the batch, map `xs` over its axis 0.
batched = jax.vmap(predict, in_axes=(None, 0))(params, xs)
print("one example:", xs[0].shape, "->", one.shape)
print("batch:      ", xs.shape, "->", batched.shape)
assert one.shape == (2,) and batched.shape == (5, 2)

print(batched)

# Row i is what a Python loop over the examples gives. Float32 products in this block, so that
# GPUs and TPUs, which multiply float32 matrices in TF32 or bfloat16 by default, compare as tightly as CPUs.
with jax.default_matmul_precision("float32"):
    loop = jnp.stack([predict(params, x) for x in xs])
    assert jnp.allclose(jax.vmap(predict, in_axes=(None, 0))(params, xs), loop, atol=1e-6)

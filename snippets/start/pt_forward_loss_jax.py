"""JAX forward and loss: one function of (params, x, y) that returns a plain scalar array."""
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the check
rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype(np.float32)
y = np.sin(x.sum(axis=1, keepdims=True))


def dense(key, n_in, n_out):
    kw, kb = jax.random.split(key)
    s = 1 / np.sqrt(n_in)
    return {"kernel": jax.random.uniform(kw, (n_in, n_out), minval=-s, maxval=s),
            "bias": jax.random.uniform(kb, (n_out,), minval=-s, maxval=s)}


def forward(params, x):  # 3. forward: the weights are an argument
    h = jnp.tanh(x @ params["l1"]["kernel"] + params["l1"]["bias"])
    return h @ params["l2"]["kernel"] + params["l2"]["bias"]


def loss_fn(params, x, y):  # 4. loss: the function jax.value_and_grad will take
    return jnp.mean((forward(params, x) - y) ** 2)


k1, k2 = jax.random.split(jax.random.key(0))
params = {"l1": dense(k1, 4, 8), "l2": dense(k2, 8, 1)}
loss = loss_fn(params, x, y)
print("loss:", loss, "| shape:", loss.shape, "| dtype:", loss.dtype)

# x @ kernel with kernel (in, out): the same numbers in plain numpy.
p = jax.tree.map(np.asarray, params)
h = np.tanh(x @ p["l1"]["kernel"] + p["l1"]["bias"])
expected = np.mean((h @ p["l2"]["kernel"] + p["l2"]["bias"] - y) ** 2)
rel = abs(float(loss) - float(expected)) / float(expected)
print(f"relative difference from numpy: {rel:.1e}")
assert loss.shape == () and loss.dtype == jnp.float32
assert rel < 1e-4  # 1e-7 on the CPU; 8.2e-07 on a TPU v5e, whose tanh differs from numpy's

"""JAX: the same tanh RNN with lax.scan, and the same hidden states as torch.nn.RNN."""
import jax
import jax.numpy as jnp
import numpy as np
import torch

# numpy is only a neutral source, so that both tabs get identical arrays.
rng = np.random.default_rng(0)
T, n_in, n_hidden = 6, 3, 4
W_xh = (rng.normal(size=(n_hidden, n_in)) / np.sqrt(n_in)).astype(np.float32)
W_hh = (rng.normal(size=(n_hidden, n_hidden)) / np.sqrt(n_hidden)).astype(np.float32)
b = rng.normal(size=n_hidden).astype(np.float32)
xs = rng.normal(size=(T, n_in)).astype(np.float32)
params = {"W_xh": W_xh, "W_hh": W_hh, "b": b}


@jax.jit
def hidden_states(params, xs):
    def step(h, x):
        h = jnp.tanh(params["W_hh"] @ h + params["W_xh"] @ x + params["b"])
        return h, h  # carry the state forward and also output it
    _, hs = jax.lax.scan(step, jnp.zeros(n_hidden), xs)
    return hs


with jax.default_matmul_precision("highest"):  # float32 products, as torch uses on the CPU (no TF32 or bf16)
    hs = hidden_states(params, xs)
print("hidden states:", hs.shape)
print("last h:", np.round(np.asarray(hs[-1]), 4))

# The check: torch.nn.RNN with the same weights gives the same hidden states.
rnn = torch.nn.RNN(n_in, n_hidden)
with torch.no_grad():
    for name, value in [("weight_ih_l0", W_xh), ("weight_hh_l0", W_hh), ("bias_ih_l0", b)]:
        getattr(rnn, name).copy_(torch.from_numpy(value))
    rnn.bias_hh_l0.zero_()
    out, _ = rnn(torch.from_numpy(xs))
diff = np.abs(out.numpy() - np.asarray(hs)).max()
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-4  # off the CPU tanh differs (TPU v5e: 2.1e-05)
print(f"max |torch - jax|: {diff:.1e} (tolerance on {jax.default_backend()}: {tol:.0e})")
assert hs.shape == (T, n_hidden) and diff < tol

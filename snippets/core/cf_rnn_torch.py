"""PyTorch: a tanh RNN as a Python loop over time steps, the same as torch.nn.RNN with copied weights."""
import numpy as np
import torch

# numpy is only a neutral source, so that both tabs get identical arrays.
rng = np.random.default_rng(0)
T, n_in, n_hidden = 6, 3, 4
W_xh = (rng.normal(size=(n_hidden, n_in)) / np.sqrt(n_in)).astype(np.float32)
W_hh = (rng.normal(size=(n_hidden, n_hidden)) / np.sqrt(n_hidden)).astype(np.float32)
b = rng.normal(size=n_hidden).astype(np.float32)
xs = rng.normal(size=(T, n_in)).astype(np.float32)

# Eager PyTorch: the Python loop runs on every call, one step at a time.
W_xh_t, W_hh_t, b_t = map(torch.from_numpy, (W_xh, W_hh, b))
h, hs = torch.zeros(n_hidden), []
for x in torch.from_numpy(xs):
    h = torch.tanh(W_hh_t @ h + W_xh_t @ x + b_t)
    hs.append(h)
hs = torch.stack(hs)

rnn = torch.nn.RNN(n_in, n_hidden)  # tanh by default; weights are (hidden, in), as above
with torch.no_grad():
    rnn.weight_ih_l0.copy_(W_xh_t)
    rnn.weight_hh_l0.copy_(W_hh_t)
    rnn.bias_ih_l0.copy_(b_t)
    rnn.bias_hh_l0.zero_()  # nn.RNN has two biases; one is enough here
    out, h_n = rnn(torch.from_numpy(xs))  # unbatched input: (T, n_in)
print("hidden states:", tuple(hs.shape))
print("last h:", np.round(hs[-1].numpy(), 4))
assert out.shape == (T, n_hidden) and torch.allclose(out, hs, atol=1e-6)

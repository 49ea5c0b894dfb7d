"""A tanh RNN scanned over a sequence, all weights passed in as a params dict; checked and differentiated."""
import jax
import jax.numpy as jnp


def init_params(key, n_in, n_hidden, n_out):
    k_xh, k_hh, k_hy = jax.random.split(key, 3)
    return {"W_xh": jax.random.normal(k_xh, (n_hidden, n_in)) / jnp.sqrt(n_in),
            "W_hh": jax.random.normal(k_hh, (n_hidden, n_hidden)) / jnp.sqrt(n_hidden),
            "b": jnp.zeros(n_hidden),
            "W_hy": jax.random.normal(k_hy, (n_out, n_hidden)) / jnp.sqrt(n_hidden)}


def cell(params, h, x):
    h = jnp.tanh(params["W_hh"] @ h + params["W_xh"] @ x + params["b"])
    return h, params["W_hy"] @ h  # (new carry, output of this step)


traces = []  # a trace-time side effect: counts the traces of rnn_scan


@jax.jit
def rnn_scan(params, h0, xs):
    traces.append(None)
    # The body closes over `params`, an argument of rnn_scan: no global weights.
    return jax.lax.scan(lambda h, x: cell(params, h, x), h0, xs)


def rnn_loop(params, h0, xs):  # the same model as a plain Python loop, for checking
    h, ys = h0, []
    for x in xs:
        h, y = cell(params, h, x)
        ys.append(y)
    return h, jnp.stack(ys)


k_params, k_xs, k_ys = jax.random.split(jax.random.key(0), 3)
params = init_params(k_params, n_in=3, n_hidden=8, n_out=2)
xs = jax.random.normal(k_xs, (20, 3))  # 20 time steps of 3 features
targets = jax.random.normal(k_ys, (20, 2))
h0 = jnp.zeros(8)

h_scan, ys_scan = rnn_scan(params, h0, xs)
h_loop, ys_loop = rnn_loop(params, h0, xs)
print("final h:", h_scan.shape, "| outputs:", ys_scan.shape)
print(f"max |scan - loop| over the outputs: {float(jnp.abs(ys_scan - ys_loop).max()):.1e}")
assert ys_scan.shape == (20, 2) and h_scan.shape == (8,)
assert jnp.allclose(ys_scan, ys_loop, atol=1e-5) and jnp.allclose(h_scan, h_loop, atol=1e-5)


def loss(params, run):
    _, ys = run(params, h0, xs)
    return jnp.mean((ys - targets) ** 2)


grads = jax.grad(lambda p: loss(p, rnn_scan))(params)  # reverse mode through the scan
grads_loop = jax.grad(lambda p: loss(p, rnn_loop))(params)
diff = max(float(jnp.abs(a - b).max()) for a, b in zip(jax.tree.leaves(grads), jax.tree.leaves(grads_loop)))
print("grad shapes:", jax.tree.map(jnp.shape, grads))
print(f"max |grad scan - grad loop|: {diff:.1e}")
assert jax.tree.map(jnp.shape, grads) == jax.tree.map(jnp.shape, params)
assert diff < 1e-5

# New weights are new argument values: the compiled program is reused, not traced again.
new_params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
print(f"loss before / after one SGD step: {loss(params, rnn_scan):.4f} / {loss(new_params, rnn_scan):.4f}")
print("traces of rnn_scan:", len(traces))
assert len(traces) == 1 and loss(new_params, rnn_scan) < loss(params, rnn_scan)

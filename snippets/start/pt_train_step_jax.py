"""The same training step in JAX + optax: every piece of state goes in and comes back out."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

rng = np.random.default_rng(0)  # the same arrays as the PyTorch tab
x = rng.normal(size=(32, 4)).astype(np.float32)
y = np.sin(x.sum(axis=1, keepdims=True))


def dense(key, n_in, n_out):
    # The range torch uses for nn.Linear: U(-1/sqrt(n_in), 1/sqrt(n_in)).
    kw, kb = jax.random.split(key)
    s = 1 / np.sqrt(n_in)
    return {"kernel": jax.random.uniform(kw, (n_in, n_out), minval=-s, maxval=s),
            "bias": jax.random.uniform(kb, (n_out,), minval=-s, maxval=s)}


def loss_fn(params, x, y):
    h = jnp.tanh(x @ params["l1"]["kernel"] + params["l1"]["bias"])  # 3. forward
    pred = h @ params["l2"]["kernel"] + params["l2"]["bias"]
    return jnp.mean((pred - y) ** 2)  # 4. loss


k1, k2 = jax.random.split(jax.random.key(0))
params = {"l1": dense(k1, 4, 8), "l2": dense(k2, 8, 1)}  # 1. model init: a pytree
tx = optax.adam(1e-2)
opt_state = tx.init(params)  # 2. optimizer init: the Adam moments, as a value


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)  # 5. backward
    updates, opt_state = tx.update(grads, opt_state, params)  # 6. step ...
    params = optax.apply_updates(params, updates)  # ... as new values
    return params, opt_state, loss  # the new state is returned


losses = []
for _ in range(20):
    params, opt_state, loss = train_step(params, opt_state, x, y)
    losses.append(float(loss))
print(f"loss after step 1: {losses[0]:.4f}, after step 20: {losses[-1]:.4f}")
assert losses[-1] < losses[0]

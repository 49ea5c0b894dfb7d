"""RMSprop and Adagrad: a port that sets only the learning rate does not match torch."""
import jax.numpy as jnp
import numpy as np
import optax
import torch

rng = np.random.default_rng(0)
w0 = rng.normal(size=(4, 3)).astype(np.float32)
grads = 1e-3 * rng.normal(size=(5, 4, 3)).astype(np.float32)  # small, as in deep networks
lr = 0.01


def relative_gap(make_torch, tx):
    """max |torch step - optax step| / max |torch step|, over 5 steps from w0."""
    p = torch.nn.Parameter(torch.from_numpy(w0.copy()))
    opt = make_torch([p])
    params, state = jnp.asarray(w0), tx.init(jnp.asarray(w0))
    for g in grads:
        p.grad = torch.from_numpy(g.copy())
        opt.step()
        updates, state = tx.update(jnp.asarray(g), state)
        params = optax.apply_updates(params, updates)
    moved_torch, moved_optax = p.detach().numpy() - w0, np.asarray(params) - w0
    return float(np.abs(moved_torch - moved_optax).max() / np.abs(moved_torch).max())


rms = lambda p: torch.optim.RMSprop(p, lr)  # torch defaults: alpha=0.99, eps=1e-8
ada = lambda p: torch.optim.Adagrad(p, lr)  # torch defaults: accumulator 0, eps=1e-10
gaps = {
    "optax.rmsprop(lr)": relative_gap(rms, optax.rmsprop(lr)),
    "  + decay=0.99": relative_gap(rms, optax.rmsprop(lr, decay=0.99)),
    "  + eps_in_sqrt=False": relative_gap(rms, optax.rmsprop(lr, decay=0.99, eps_in_sqrt=False)),
    "optax.adagrad(lr)": relative_gap(ada, optax.adagrad(lr)),
    "  + initial_accumulator_value=0": relative_gap(
        ada, optax.adagrad(lr, initial_accumulator_value=0.0)),
    "  + eps=0": relative_gap(ada, optax.adagrad(lr, initial_accumulator_value=0.0, eps=0.0)),
}
for name, gap in gaps.items():
    print(f"{name:33s} relative gap to torch {gap:.1e}")

tol = 1e-5
print(f"a port matches when the gap is below {tol:.0e}")
assert gaps["  + decay=0.99"] > 0.1  # eps under the square root still changes the step a lot
assert gaps["  + initial_accumulator_value=0"] > 0.01  # so does eps=1e-7 under the root
assert gaps["  + eps_in_sqrt=False"] < tol and gaps["  + eps=0"] < tol

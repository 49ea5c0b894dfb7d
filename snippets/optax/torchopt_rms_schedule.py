"""RMSprop with momentum under a learning-rate schedule: optax.rmsprop drifts, a reordered chain matches."""
import jax.numpy as jnp
import numpy as np
import optax
import torch

rng = np.random.default_rng(0)
w0 = rng.normal(size=(4, 3)).astype(np.float32)
grads = rng.normal(size=(20, 4, 3)).astype(np.float32)  # one fixed gradient per step
lr, m, gamma = 0.01, 0.9, 0.8
schedule = optax.exponential_decay(init_value=lr, transition_steps=1, decay_rate=gamma)


def max_gap(make_torch, tx):
    """max |torch - optax| after len(grads) steps, torch with ExponentialLR(gamma)."""
    p = torch.nn.Parameter(torch.from_numpy(w0.copy()))
    opt = make_torch([p])
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=gamma)  # the same lr per step
    params, state = jnp.asarray(w0), tx.init(jnp.asarray(w0))
    for g in grads:
        p.grad = torch.from_numpy(g.copy())
        opt.step()
        sched.step()
        updates, state = tx.update(jnp.asarray(g), state)
        params = optax.apply_updates(params, updates)
    assert np.abs(np.asarray(params) - w0).max() > lr  # the weights really moved
    return float(np.abs(p.detach().numpy() - np.asarray(params)).max())


rms_torch = lambda p: torch.optim.RMSprop(p, lr, momentum=m)  # buf = m*buf + g/denom; w -= lr*buf
gaps = {
    "optax.rmsprop(momentum=m)": max_gap(  # lr scales the step before the momentum trace
        rms_torch, optax.rmsprop(schedule, decay=0.99, eps_in_sqrt=False, momentum=m)),
    "chain(rms, trace, lr)": max_gap(  # lr after the momentum trace, as in torch
        rms_torch, optax.chain(optax.scale_by_rms(decay=0.99, eps=1e-8, eps_in_sqrt=False),
                               optax.trace(decay=m), optax.scale_by_learning_rate(schedule))),
    "optax.sgd(momentum=m)": max_gap(  # sgd already traces before the lr
        lambda p: torch.optim.SGD(p, lr, momentum=m), optax.sgd(schedule, momentum=m)),
}
tol = 1e-6  # a few float32 roundings of weights of size 1
print(f"torch ExponentialLR(gamma={gamma}), optax exponential_decay, {len(grads)} steps")
for name, gap in gaps.items():
    print(f"{name:27s} max |torch - optax| {gap:.1e}")
print(f"a port matches when the gap is below {tol:.0e}")
assert gaps["optax.rmsprop(momentum=m)"] > 1000 * tol  # far beyond float32 rounding
assert gaps["chain(rms, trace, lr)"] < tol and gaps["optax.sgd(momentum=m)"] < tol

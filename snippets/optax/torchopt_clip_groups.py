"""clip_grad_value_ is optax.clip; per-group clipping is a clip in each optax.partition branch."""
import jax.numpy as jnp
import numpy as np
import optax
import torch

rng = np.random.default_rng(0)
w0 = {"w": rng.normal(size=(4, 3)).astype(np.float32), "b": rng.normal(size=3).astype(np.float32)}
grads = [{k: 3 * rng.normal(size=v.shape).astype(np.float32) for k, v in w0.items()}
         for _ in range(5)]  # five fixed gradients, large enough to be clipped
lr, max_delta, norms = 0.1, 0.5, {"w": 1.0, "b": 0.1}  # one clip norm per group


def run_torch(clip_before_step):
    ps = {k: torch.nn.Parameter(torch.from_numpy(v.copy())) for k, v in w0.items()}
    opt = torch.optim.SGD([{"params": [ps["w"]]}, {"params": [ps["b"]]}], lr, momentum=0.9)
    for g in grads:
        for k, p in ps.items():
            p.grad = torch.from_numpy(g[k].copy())
        clip_before_step(ps)
        opt.step()
    return {k: p.detach().numpy() for k, p in ps.items()}


def run_optax(tx):
    params = {k: jnp.asarray(v) for k, v in w0.items()}
    state = tx.init(params)
    for g in grads:
        updates, state = tx.update({k: jnp.asarray(v) for k, v in g.items()}, state, params)
        params = optax.apply_updates(params, updates)
    return params


def gap(a, b):
    return max(float(np.abs(a[k] - np.asarray(b[k])).max()) for k in w0)


# Every gradient entry limited to [-max_delta, max_delta].
value_torch = run_torch(lambda ps: torch.nn.utils.clip_grad_value_(ps.values(), max_delta))
value_optax = run_optax(optax.chain(optax.clip(max_delta), optax.sgd(lr, momentum=0.9)))
# One norm per group: torch clips each group's parameters, optax clips inside each branch.
group_torch = run_torch(
    lambda ps: [torch.nn.utils.clip_grad_norm_([ps[k]], c) for k, c in norms.items()])
branches = {k: optax.chain(optax.clip_by_global_norm(c), optax.sgd(lr, momentum=0.9))
            for k, c in norms.items()}
group_optax = run_optax(optax.partition(branches, {"w": "w", "b": "b"}))  # label of each leaf
# A single global clip over both groups is a different optimizer.
global_optax = run_optax(optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(lr, momentum=0.9)))

tol = 1e-6
rows = {"clip_grad_value_ vs optax.clip": (value_torch, value_optax),
        "per-group clip_grad_norm_ vs branches": (group_torch, group_optax),
        "per-group torch vs one global clip": (group_torch, global_optax)}
for name, (a, b) in rows.items():
    print(f"{name:38s} max |torch - optax| = {gap(a, b):.1e}")
assert gap(value_torch, value_optax) < tol and gap(group_torch, group_optax) < tol
assert gap(group_torch, global_optax) > 100 * tol
assert max(gap(w0, value_optax), gap(w0, group_optax)) > lr  # the weights really moved

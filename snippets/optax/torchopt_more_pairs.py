"""SGD with weight decay, Adagrad's lr_decay, NAdam, RAdam and AMSGrad: torch.optim vs optax."""
import jax

jax.config.update("jax_enable_x64", True)  # float64 in both: only the formulas differ
import jax.numpy as jnp
import numpy as np
import optax
import torch

torch.set_default_dtype(torch.float64)  # torch keeps NAdam's momentum product in this dtype

rng = np.random.default_rng(0)
w0 = rng.normal(size=(4, 3))
grads = rng.normal(size=(10, 4, 3))  # one fixed float64 gradient per step, 10 steps
lr, wd, m, lr_decay, b2 = 0.01, 0.05, 0.9, 0.1, 0.999

# AMSGrad as torch computes it: the max of the raw second moments, then the bias correction.
torch_amsgrad = optax.chain(
    optax.scale_by_amsgrad(bias_correction_nu=False, eps=0.0),
    optax.scale_by_schedule(lambda t: jnp.sqrt(1 - b2 ** (t + 1))),  # t counts from 0
    optax.scale(-lr))
pairs = {  # name: (torch factory, optax transformation, expected to match)
    "SGD wd + momentum": (lambda p: torch.optim.SGD(p, lr, momentum=m, weight_decay=wd),
                          optax.chain(optax.add_decayed_weights(wd), optax.sgd(lr, momentum=m)),
                          True),
    "Adagrad lr_decay, optax lr": (lambda p: torch.optim.Adagrad(p, lr, lr_decay=lr_decay),
                                   optax.adagrad(lr, initial_accumulator_value=0.0, eps=0.0),
                                   False),
    "Adagrad lr_decay, schedule": (lambda p: torch.optim.Adagrad(p, lr, lr_decay=lr_decay),
                                   optax.adagrad(lambda t: lr / (1 + t * lr_decay),
                                                 initial_accumulator_value=0.0, eps=0.0),
                                   True),
    "NAdam": (lambda p: torch.optim.NAdam(p, lr), optax.nadam(lr), False),
    "NAdam momentum_decay=1e9": (lambda p: torch.optim.NAdam(p, lr, momentum_decay=1e9),
                                 optax.nadam(lr), True),
    "RAdam": (lambda p: torch.optim.RAdam(p, lr), optax.radam(lr), True),
    "RAdam eps=0": (lambda p: torch.optim.RAdam(p, lr, eps=0.0), optax.radam(lr, eps=0.0), True),
    "AMSGrad": (lambda p: torch.optim.Adam(p, lr, amsgrad=True), optax.amsgrad(lr), False),
    "AMSGrad, torch's max, eps=0": (lambda p: torch.optim.Adam(p, lr, eps=0.0, amsgrad=True),
                                    torch_amsgrad, True),
}
# A TPU has no float64 hardware: it emulates float64, with a less exact power function (the NAdam
# pair that matches here differed by 1.8e-7 on a TPU v5e), so off the CPU a match is a gap below 1e-6.
on_cpu = jax.default_backend() == "cpu"
tol, gaps, torch_states = 1e-9 if on_cpu else 1e-6, {}, {}
print(f"{'optimizer':29s} max |torch - optax| after {len(grads)} steps (float64)")
for name, (make_torch, tx, match) in pairs.items():
    p = torch.nn.Parameter(torch.from_numpy(w0.copy()))
    opt = make_torch([p])
    params = jnp.asarray(w0)
    state = tx.init(params)
    for g in grads:
        p.grad = torch.from_numpy(g.copy())
        opt.step()
        updates, state = tx.update(jnp.asarray(g), state, params)
        params = optax.apply_updates(params, updates)
    torch_states[name] = opt.state[p]
    gap = gaps[name] = float(np.abs(p.detach().numpy() - np.asarray(params)).max())
    print(f"{name:29s} {gap:.1e}")
    assert (gap < tol) if match else (gap > 1e3 * tol), name
    assert np.abs(np.asarray(params) - w0).max() > lr  # the weights really moved
print(f"a pair matches when the gap is below {tol:.0e} (on {jax.default_backend()})")
# torch NAdam's momentum at step t is b1 * (1 - 0.5 * 0.96 ** (t * momentum_decay)), not b1.
mu = lambda t, momentum_decay=4e-3: 0.9 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
print("torch NAdam momentum at steps 1, 1000, 10000:", [round(mu(t), 3) for t in (1, 1000, 10000)])
t = np.arange(1, len(grads) + 1)
assert np.isclose(float(torch_states["NAdam"]["mu_product"]), np.prod(mu(t)), rtol=1e-12)
assert np.isclose(float(torch_states["NAdam momentum_decay=1e9"]["mu_product"]), 0.9 ** len(grads),
                  rtol=1e-12)  # momentum b1 at every step, as in optax.nadam
# RAdam's remaining gap is where eps goes: torch adds it before the bias correction. It is about
# 2e-10, visible only where float64 is exact (the CPU).
if on_cpu:
    assert gaps["RAdam eps=0"] < 1e-3 * gaps["RAdam"]
# Both rectify once rho_t > 5 (optax: >= 5); with b2=0.999 no step lands exactly on 5.
rho = 2 / (1 - b2) - 1 - 2 * t * b2**t / (1 - b2**t)
print("RAdam rectifies from step", int(t[rho > 5][0]), "of", len(grads))
assert not np.any(rho == 5) and rho[-1] > 5

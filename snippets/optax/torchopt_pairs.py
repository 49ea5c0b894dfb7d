"""Each torch.optim optimizer and its optax twin, fed the same 5 gradients: max difference."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
import torch

rng = np.random.default_rng(0)
w0 = rng.normal(size=(4, 3)).astype(np.float32)
grads = rng.normal(size=(5, 4, 3)).astype(np.float32)  # one fixed gradient per step
lr, wd = 0.01, 0.05

pairs = {  # name: (torch optimizer factory, optax transformation)
    "SGD momentum": (lambda p: torch.optim.SGD(p, lr, momentum=0.9),
                     optax.sgd(lr, momentum=0.9)),
    "SGD Nesterov": (lambda p: torch.optim.SGD(p, lr, momentum=0.9, nesterov=True),
                     optax.sgd(lr, momentum=0.9, nesterov=True)),
    "Adam": (lambda p: torch.optim.Adam(p, lr), optax.adam(lr)),
    "Adam + L2": (lambda p: torch.optim.Adam(p, lr, weight_decay=wd),
                  optax.chain(optax.add_decayed_weights(wd), optax.adam(lr))),
    "AdamW": (lambda p: torch.optim.AdamW(p, lr, weight_decay=wd),
              optax.adamw(lr, weight_decay=wd)),
    "RMSprop": (lambda p: torch.optim.RMSprop(p, lr),
                optax.rmsprop(lr, decay=0.99, eps_in_sqrt=False)),
    "RMSprop momentum": (lambda p: torch.optim.RMSprop(p, lr, momentum=0.9),
                         optax.rmsprop(lr, decay=0.99, eps_in_sqrt=False, momentum=0.9)),
    "Adagrad": (lambda p: torch.optim.Adagrad(p, lr),
                optax.adagrad(lr, initial_accumulator_value=0.0, eps=0.0)),
}

# Off the CPU, optax's bias correction 1 - b2**t uses the device's float32 power function (about 1e-6
# relative on a TPU v5e), and 1 - 0.999**t ~ 1e-3 magnifies that: 5.8e-6 on a TPU v5e.
rtol, atol = (1e-5, 1e-6) if jax.default_backend() == "cpu" else (1e-4, 2e-5)
gaps = {}
print(f"{'optimizer':17s} max |torch - optax| after {len(grads)} steps")
for name, (make_torch, tx) in pairs.items():
    p = torch.nn.Parameter(torch.from_numpy(w0.copy()))
    opt = make_torch([p])
    params = jnp.asarray(w0)
    state = tx.init(params)
    for g in grads:
        p.grad = torch.from_numpy(g.copy())
        opt.step()
        updates, state = tx.update(jnp.asarray(g), state, params)
        params = optax.apply_updates(params, updates)
    w_torch, w_optax = p.detach().numpy(), np.asarray(params)
    gaps[name] = float(np.abs(w_torch - w_optax).max())
    print(f"{name:17s} {gaps[name]:.1e}")
    assert np.allclose(w_optax, w_torch, rtol=rtol, atol=atol), name
    assert np.abs(w_optax - w0).max() > lr  # the weights really moved
# Adam rounds more than SGD (see the bias-correction section), yet stays within tolerance.
adam_gap = min(gaps["Adam"], gaps["Adam + L2"], gaps["AdamW"])
assert adam_gap > 10 * max(gaps["SGD momentum"], gaps["SGD Nesterov"])
print(f"all agree within rtol={rtol:.0e}, atol={atol:.0e} (float32, {jax.default_backend()})")

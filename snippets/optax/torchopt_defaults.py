"""Default hyperparameters of torch.optim and optax, read from the installed signatures."""
import inspect
import optax
import torch


def defaults(fn, names):
    params = inspect.signature(fn).parameters
    return {n: ("required" if params[n].default is inspect.Parameter.empty else params[n].default)
            for n in names}


pairs = {  # name: (torch defaults, optax defaults)
    "SGD": (defaults(torch.optim.SGD, ["lr", "momentum", "dampening"]),
            defaults(optax.sgd, ["learning_rate", "momentum"])),
    "Adam": (defaults(torch.optim.Adam, ["lr", "betas", "eps"]),
             defaults(optax.adam, ["learning_rate", "b1", "b2", "eps"])),
    "AdamW": (defaults(torch.optim.AdamW, ["weight_decay"]),
              defaults(optax.adamw, ["weight_decay"])),
    "RMSprop": (defaults(torch.optim.RMSprop, ["alpha", "eps"]),
                defaults(optax.rmsprop, ["decay", "eps", "eps_in_sqrt"])),
    "Adagrad": (defaults(torch.optim.Adagrad, ["initial_accumulator_value", "eps"]),
                defaults(optax.adagrad, ["initial_accumulator_value", "eps"])),
}
for name, (t, o) in pairs.items():
    print(f"{name:8s} torch: " + ", ".join(f"{k}={v}" for k, v in t.items()))
    print(f"{'':8s} optax: " + ", ".join(f"{k}={v}" for k, v in o.items()))

(t, o) = pairs["Adam"]  # Adam: the same betas and eps
assert t["betas"] == (o["b1"], o["b2"]) and t["eps"] == o["eps"]
assert all(o["learning_rate"] == "required" for _, o in pairs.values() if "learning_rate" in o)
assert pairs["AdamW"] == ({"weight_decay": 0.01}, {"weight_decay": 1e-4})
(t, o) = pairs["RMSprop"]  # different decay, and eps goes under the square root in optax
assert (t["alpha"], o["decay"], o["eps_in_sqrt"]) == (0.99, 0.9, True)
(t, o) = pairs["Adagrad"]  # different starting accumulator and eps
assert (t["initial_accumulator_value"], o["initial_accumulator_value"]) == (0, 0.1)
assert (t["eps"], o["eps"]) == (1e-10, 1e-7)
# Two torch options have no optax argument at all.
missing = {"SGD dampening": "dampening" in inspect.signature(optax.sgd).parameters,
           "Adagrad lr_decay": "lr_decay" in inspect.signature(optax.adagrad).parameters}
print("no optax argument for:", ", ".join(k for k, present in missing.items() if not present))
assert not any(missing.values())

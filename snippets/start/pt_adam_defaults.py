"""Default hyperparameters: Adam matches between torch and optax, AdamW weight decay does not."""
import inspect

import optax
import torch


def optax_default(fn, name):
    return inspect.signature(fn).parameters[name].default


torch_adam = torch.optim.Adam([torch.zeros(1)]).defaults
torch_adamw = torch.optim.AdamW([torch.zeros(1)]).defaults
print("Adam  betas, eps | torch:", torch_adam["betas"], torch_adam["eps"],
      "| optax:", (optax_default(optax.adam, "b1"), optax_default(optax.adam, "b2")),
      optax_default(optax.adam, "eps"))
print("AdamW weight_decay | torch:", torch_adamw["weight_decay"],
      "| optax:", optax_default(optax.adamw, "weight_decay"))

# Adam: same betas and eps, and optax adds nothing under the square root by default.
assert torch_adam["betas"] == (optax_default(optax.adam, "b1"), optax_default(optax.adam, "b2"))
assert torch_adam["eps"] == optax_default(optax.adam, "eps")
assert optax_default(optax.adam, "eps_root") == 0.0
# AdamW: pass weight_decay explicitly when porting, the defaults differ.
assert torch_adamw["weight_decay"] != optax_default(optax.adamw, "weight_decay")

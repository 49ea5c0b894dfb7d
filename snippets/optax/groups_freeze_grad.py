"""Freezing without the frozen gradients: differentiate only the head, and what jit does with set_to_zero."""
import jax
import jax.numpy as jnp
import optax

k1, k2, kx = jax.random.split(jax.random.key(0), 3)
params = {"backbone": {"w": jax.random.normal(k1, (256, 256)), "b": jnp.zeros(256)},
          "head": {"w": jax.random.normal(k2, (256, 1)) / 16, "b": jnp.zeros(1)}}
x = jax.random.normal(kx, (512, 256))


def loss_fn(head, backbone):  # the trainable subtree first: jax.grad differentiates only it
    h = jnp.tanh(x @ backbone["w"] + backbone["b"])
    return jnp.mean((h @ head["w"] + head["b"] - 1.0) ** 2)


# A: differentiate all parameters, zero the backbone's updates with set_to_zero.
tx_a = optax.partition({"train": optax.adam(0.05), "frozen": optax.set_to_zero()},
                       {"backbone": "frozen", "head": "train"})
# B: differentiate the head only, and give the optimizer only the head.
tx_b = optax.adam(0.05)


@jax.jit
def step_a(p, state):
    grads = jax.grad(lambda p: loss_fn(p["head"], p["backbone"]))(p)
    updates, state = tx_a.update(grads, state, p)
    return optax.apply_updates(p, updates), state


@jax.jit
def step_b(head, state, backbone):
    grads = jax.grad(loss_fn)(head, backbone)  # a tree with the head's leaves only
    updates, state = tx_b.update(grads, state, head)
    return optax.apply_updates(head, updates), state


pa, sa, head, sb = params, tx_a.init(params), params["head"], tx_b.init(params["head"])
for _ in range(5):
    pa, sa = step_a(pa, sa)
    head, sb = step_b(head, sb, params["backbone"])
diff = max(float(jnp.abs(a - b).max()) for a, b in zip(jax.tree.leaves(pa["head"]), jax.tree.leaves(head)))
print(f"max |A - B| on the head after 5 steps: {diff:.1e} (tolerance 1e-6)")
assert diff < 1e-6

# The compiler's FLOP estimate for one step: A costs what B costs, not what training everything costs.
tx_all = optax.adam(0.05)


@jax.jit
def step_all(p, state):  # the same step with nothing frozen
    updates, state = tx_all.update(jax.grad(lambda p: loss_fn(p["head"], p["backbone"]))(p), state, p)
    return optax.apply_updates(p, updates), state


flops = {"A: set_to_zero": step_a.lower(params, tx_a.init(params)),
         "B: head only": step_b.lower(params["head"], tx_b.init(params["head"]), params["backbone"]),
         "nothing frozen": step_all.lower(params, tx_all.init(params))}
flops = {k: v.compile().cost_analysis()["flops"] for k, v in flops.items()}
for k, v in flops.items():
    print(f"{k:15s} {v / 1e6:6.1f} MFLOP ({jax.default_backend()})")
assert abs(flops["A: set_to_zero"] / flops["B: head only"] - 1) < 0.05
assert flops["A: set_to_zero"] < 0.6 * flops["nothing frozen"]

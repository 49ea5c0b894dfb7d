"""Donating params and optimizer state: XLA's memory estimate for one train step, with and without."""
import re

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import optax

k1, k2, k3, kx, ky = jax.random.split(jax.random.key(0), 5)
params = {"w1": jax.random.normal(k1, (512, 1024)) / 512**0.5, "b1": jnp.zeros(1024),
          "w2": jax.random.normal(k2, (1024, 1024)) / 1024**0.5, "b2": jnp.zeros(1024),
          "w3": jax.random.normal(k3, (1024, 10)) / 1024**0.5, "b3": jnp.zeros(10)}
x, y = jax.random.normal(kx, (64, 512)), jax.random.randint(ky, (64,), 0, 10)
tx = optax.adam(1e-3)
opt_state = tx.init(params)


def train_step(params, opt_state, x, y):
    def loss_fn(p):
        h = jax.nn.relu(jax.nn.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"])
        return optax.softmax_cross_entropy_with_integer_labels(h @ p["w3"] + p["b3"], y).mean()
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


state_mb = sum(a.nbytes for a in jax.tree.leaves((params, opt_state))) / 2**20
print(f"params + Adam state: {state_mb:.2f} MiB")
stats, copied = {}, {}
for name, donate in (("no donation", ()), ("donate_argnums=(0, 1)", (0, 1))):
    compiled = jax.jit(train_step, donate_argnums=donate).lower(params, opt_state, x, y).compile()
    m = compiled.memory_analysis()
    sizes = (m.argument_size_in_bytes, m.output_size_in_bytes, m.alias_size_in_bytes, m.temp_size_in_bytes)
    arg, out, alias, temp = (b / 2**20 for b in sizes)
    stats[name] = (arg, out, alias, temp, arg + out - alias + temp)  # outputs in donated buffers: no new memory
    text = compiled.as_text()
    copied[name] = sorted(re.findall(r" copy\(%(\w+?)\.\d+\)", text[text.index("\nENTRY"):]))  # inputs copied
print(f"{'MiB':<22}{'arguments':>10}{'outputs':>9}{'aliased':>9}{'temp':>7}{'total':>8}")
for name, row in stats.items():
    print(f"{name:<22}" + "".join(f"{v:>{w}.2f}" for v, w in zip(row, (10, 9, 9, 7, 8))))
for name, inputs in copied.items():
    print(f"inputs that the compiled step copies, {name}: {inputs}")

(*_, alias0, temp0, total0), (_, out1, alias1, temp1, total1) = stats.values()
saved = total0 - total1
print(f"saved: {saved:.2f} MiB, {saved / state_mb:.0%} of the state (asserted between 50% and 100% on the CPU)")
print(f"{jax.default_backend()}: aliased {alias1:.2f} MiB for a state of {state_mb:.2f} MiB (its arrays' nbytes)")
assert alias0 == 0 and out1 - alias1 < 0.01  # every output but the scalar loss reuses a donated buffer
if jax.default_backend() == "cpu":  # buffers of exactly nbytes, and the CPU's own buffer plan
    assert abs(alias1 - state_mb) < 0.01  # the aliased bytes are the state's
    assert temp1 > temp0 and 0.5 * state_mb < saved < state_mb  # some scratch instead: less than a full copy
    # Donated, an input whose old value is still read after its new value may be written is copied first.
    assert copied["no donation"] == [] and "params__w2__" in copied["donate_argnums=(0, 1)"]
else:  # a TPU stores arrays in (8, 128) tiles: w3 (1024, 10) and b3 (10,) take padded buffers
    assert alias1 >= state_mb

step = jax.jit(train_step, donate_argnums=(0, 1))
old_leaves = jax.tree.leaves((params, opt_state))
params, opt_state, loss = step(params, opt_state, x, y)  # rebind: the old state is gone
deleted = sum(a.is_deleted() for a in old_leaves)
print(f"after one donated step: {deleted} of {len(old_leaves)} old state arrays deleted; loss {float(loss):.4f}")
assert deleted == len(old_leaves)

labels, kinds = ["no donation", "donated"], ["arguments", "new outputs", "temporaries"]
rows = [(arg, out - alias, temp) for arg, out, alias, temp, _ in stats.values()]
bottom = [0.0, 0.0]
plt.figure(figsize=(5, 3))
for i, kind in enumerate(kinds):
    values = [row[i] for row in rows]
    plt.bar(labels, values, bottom=bottom, label=kind)
    bottom = [b + v for b, v in zip(bottom, values)]
plt.ylabel("memory (MiB)")
plt.title("One train step: memory with and without donation")
plt.legend()
plt.tight_layout()
plt.show()

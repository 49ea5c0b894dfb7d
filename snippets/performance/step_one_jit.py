"""Per-step time: the optax update inside the jitted step, against a jitted gradient and an eager update."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import time

import jax
import jax.numpy as jnp
import optax

# Exact float32 products on every backend, for the check: the two programs round their gradients alike.
jax.config.update("jax_default_matmul_precision", "highest")
k1, k2, kx, ky = jax.random.split(jax.random.key(0), 4)
params = {"w1": jax.random.normal(k1, (32, 128)) / 32**0.5, "b1": jnp.zeros(128),
          "w2": jax.random.normal(k2, (128, 4)) / 128**0.5, "b2": jnp.zeros(4)}
x, y = jax.random.normal(kx, (512, 32)), jax.random.randint(ky, (512,), 0, 4)
tx = optax.adam(1e-2)


def loss_fn(p, x, y):
    logits = jax.nn.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def update(p, opt_state, grads):
    updates, opt_state = tx.update(grads, opt_state, p)
    return optax.apply_updates(p, updates), opt_state


@jax.jit
def one_jit(p, opt_state, x, y):  # gradient and update in one compiled program
    loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
    return *update(p, opt_state, grads), loss


grad_only = jax.jit(jax.value_and_grad(loss_fn))


def split(p, opt_state, x, y):  # compiled gradient, then the update op by op
    loss, grads = grad_only(p, x, y)
    return *update(p, opt_state, grads), loss


def best_us(step, rounds=30):
    p, s = params, tx.init(params)
    p, s, _ = jax.block_until_ready(step(p, s, x, y))  # warm-up: compiles
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        p, s, _ = jax.block_until_ready(step(p, s, x, y))
        best = min(best, time.perf_counter() - start)
    return 1e6 * best, p


(t_one, p_one), (t_split, p_split) = best_us(one_jit), best_us(split)
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"fastest of 30 steps: one jit {t_one:.0f} µs, jitted grad + eager optax update {t_split:.0f} µs")
print(f"ratio {t_split / t_one:.1f} (asserted > 1.5)")
gap = max(float(jnp.abs(a - b).max()) for a, b in zip(jax.tree.leaves(p_one), jax.tree.leaves(p_split)))
print(f"largest parameter difference after 31 steps: {gap:.1e}, matmul precision "
      f"{jax.config.jax_default_matmul_precision!r}")
assert all(jnp.allclose(a, b, atol=1e-5) for a, b in zip(jax.tree.leaves(p_one), jax.tree.leaves(p_split)))
assert t_split > 1.5 * t_one

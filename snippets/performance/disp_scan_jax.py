"""N training steps in one jax.jit with lax.scan, against one jitted step per Python call."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import re
import time

import jax
import jax.numpy as jnp
import optax

N_STEPS, BATCH = 200, 16
k1, k2, kx, ky = jax.random.split(jax.random.key(0), 4)
params = {"w1": jax.random.normal(k1, (8, 32)) / 8**0.5, "b1": jnp.zeros(32),
          "w2": jax.random.normal(k2, (32, 4)) / 32**0.5, "b2": jnp.zeros(4)}
xs = jax.random.normal(kx, (N_STEPS, BATCH, 8))  # every batch of the run, stacked: (N, B, 8)
ys = jax.random.randint(ky, (N_STEPS, BATCH), 0, 4)
tx = optax.sgd(0.1)


def loss_fn(p, x, y):
    logits = jax.nn.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def train_step(p, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
    updates, opt_state = tx.update(grads, opt_state, p)
    return optax.apply_updates(p, updates), opt_state, loss


step = jax.jit(train_step)  # one compiled step, called N times from Python


@jax.jit
def train_scanned(p, opt_state, xs, ys):  # N steps in one compiled program
    def body(carry, batch):
        p, opt_state, loss = train_step(*carry, *batch)
        return (p, opt_state), loss  # the loss of each step is stacked into an (N,) array

    (p, opt_state), losses = jax.lax.scan(body, (p, opt_state), (xs, ys))
    return p, opt_state, losses


batches = [(xs[i], ys[i]) for i in range(N_STEPS)]  # slice before timing: slicing is a dispatch too


def run_loop():
    p, s, losses = params, tx.init(params), []
    for x, y in batches:
        p, s, loss = step(p, s, x, y)
        losses.append(loss)  # stays on the device: no sync inside the loop
    return jax.block_until_ready((p, jnp.stack(losses)))


def run_scan():
    p, _, losses = train_scanned(params, tx.init(params), xs, ys)
    return jax.block_until_ready((p, losses))


def best_per_step_us(run, rounds=5):
    out = run()  # warm-up: compiles
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return 1e6 * best / N_STEPS, out


(t_loop, (p_loop, l_loop)), (t_scan, (p_scan, l_scan)) = best_per_step_us(run_loop), best_per_step_us(run_scan)
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"{N_STEPS} steps, fastest of 5 runs, per step: jitted step per call {t_loop:.1f} µs, "
      f"lax.scan in one jit {t_scan:.1f} µs, ratio {t_loop / t_scan:.1f}")
print("losses come back stacked:", l_scan.shape, "first / last:", f"{l_scan[0]:.4f} / {l_scan[-1]:.4f}")
assert l_scan.shape == (N_STEPS,) and l_scan[-1] < l_scan[0]
assert jnp.allclose(l_loop, l_scan, atol=1e-5)  # the same training run, step for step
assert all(jnp.allclose(a, b, atol=1e-5) for a, b in zip(jax.tree.leaves(p_loop), jax.tree.leaves(p_scan)))
if jax.default_backend() == "cpu":  # a CPU fact for this tiny model: the per-call cost dominates
    assert t_loop > 2 * t_scan

# The body is compiled once: XLA's program for 10x more steps is no larger, and compiles in about the same time.
LENGTHS = (2 * N_STEPS, 20 * N_STEPS)  # lengths not compiled yet, so that neither hits JAX's cache
compiled = {}
for n in LENGTHS:
    lowered = train_scanned.lower(params, tx.init(params), jnp.zeros((n, BATCH, 8)), jnp.zeros((n, BATCH), jnp.int32))
    start = time.perf_counter()
    text = lowered.compile().as_text()  # the program XLA built, after its own passes
    seconds = time.perf_counter() - start
    instructions = len(re.findall(r"^\s*(?:ROOT )?%?[\w.\-]+ = ", text, re.M))
    compiled[n] = instructions, text.count(" while(")
    print(f"{n} steps: compiled in {seconds * 1e3:.0f} ms, {instructions} HLO instructions, "
          f"{compiled[n][1]} while loop(s)")
if jax.default_backend() == "cpu":  # XLA:CPU keeps the loop: the same instructions, one while loop
    assert compiled[LENGTHS[0]] == compiled[LENGTHS[1]] and compiled[LENGTHS[0]][1] == 1

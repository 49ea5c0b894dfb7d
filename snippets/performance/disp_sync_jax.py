"""float(loss) every step makes the host wait for the device; keeping losses on the device does not."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

N_STEPS, BATCH = 30, 128
k1, k2 = jax.random.split(jax.random.key(0))
params = {"w1": jax.random.normal(k1, (64, 512)) / 8.0, "b1": jnp.zeros(512),
          "w2": jax.random.normal(k2, (512, 10)) / 512**0.5, "b2": jnp.zeros(10)}
tx = optax.sgd(0.05)


def loss_fn(p, x, y):
    logits = jax.nn.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@jax.jit
def step(p, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
    updates, opt_state = tx.update(grads, opt_state, p)
    return optax.apply_updates(p, updates), opt_state, loss


def host_batch(rng):  # the host's share of a step: make the next batch with NumPy
    x = rng.standard_normal((BATCH, 64), dtype=np.float32)
    return x, (x[:, :10].argmax(axis=1)).astype(np.int32)


def train(sync_every_step):
    rng, p, s, losses = np.random.default_rng(0), params, tx.init(params), []
    start = time.perf_counter()
    for _ in range(N_STEPS):
        p, s, loss = step(p, s, *host_batch(rng))
        losses.append(float(loss) if sync_every_step else loss)  # float() waits for this step
    loop_ended = time.perf_counter()  # the last step has been dispatched, maybe not computed
    losses = np.array(losses) if sync_every_step else np.asarray(jnp.stack(losses))  # one wait at the end
    jax.block_until_ready(p)
    total = time.perf_counter() - start
    return 1e6 * total / N_STEPS, losses, (loop_ended - start) / total


train(True), train(False)  # warm-up: compile, and the first-call costs of both loops
runs = {True: [], False: []}
for _ in range(3):  # interleaved rounds, so a busy moment slows both loops alike
    for sync in (True, False):
        runs[sync].append(train(sync))
best = {sync: min(t for t, _, _ in r) for sync, r in runs.items()}
ahead = statistics.median(f for _, _, f in runs[False])  # share of the run when the loop ended
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"per step, fastest of 3 runs of {N_STEPS} steps: float(loss) every step {best[True]:.0f} µs, "
      f"losses kept on the device {best[False]:.0f} µs, ratio {best[True] / best[False]:.2f}")
print(f"without the syncs, the Python loop ended after {ahead:.0%} of the run's time (median of 3 runs)")
losses_sync, losses_async = runs[True][0][1], runs[False][0][1]
print("same losses both ways:", np.allclose(losses_sync, losses_async), "last loss:", f"{losses_async[-1]:.4f}")
assert losses_async.dtype == np.float32 and np.allclose(losses_sync, losses_async, atol=1e-6)
if jax.default_backend() == "cpu":  # on this CPU a step computes far longer than Python takes to dispatch it
    assert ahead < 0.8  # the host ran ahead: the device had steps left to compute

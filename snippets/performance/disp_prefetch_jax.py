"""Prefetch: put the next batches on the device with jax.device_put while the current step runs."""
import collections

import grain
import jax
import jax.numpy as jnp
import numpy as np
import optax

N_STEPS, BATCH, AHEAD = 8, 32, 2
device = jax.devices()[0]
params = {"w": jax.random.normal(jax.random.key(0), (16, 4)) / 4.0, "b": jnp.zeros(4)}
tx = optax.sgd(0.1)
produced = 0  # how many batches the host has made so far


def host_batches():  # a data loader on the host: NumPy arrays, one batch at a time
    global produced
    rng = np.random.default_rng(0)
    for _ in range(N_STEPS):
        x = rng.standard_normal((BATCH, 16), dtype=np.float32)
        produced += 1
        yield x, x[:, :4].argmax(axis=1).astype(np.int32)


def prefetch_to_device(batches, ahead, device):
    """Yield the batches of `batches`, each already on `device`; while one is used, `ahead - 1` more are sent."""
    queue, batches = collections.deque(), iter(batches)
    for batch in batches:
        queue.append(jax.device_put(batch, device))  # returns at once; the copy runs in the background
        if len(queue) == ahead:
            yield queue.popleft()
    while queue:  # the last batches, once the host has no more
        yield queue.popleft()


@jax.jit
def step(p, opt_state, x, y):
    loss_fn = lambda p: optax.softmax_cross_entropy_with_integer_labels(x @ p["w"] + p["b"], y).mean()
    loss, grads = jax.value_and_grad(loss_fn)(p)
    updates, opt_state = tx.update(grads, opt_state, p)
    return optax.apply_updates(p, updates), opt_state, loss


def train(batches):
    p, s, made = params, tx.init(params), []
    for x, y in batches:
        assert isinstance(x, jax.Array) and x.devices() == {device}  # already on the device
        made.append(produced)
        p, s, loss = step(p, s, x, y)
    return p, made


p_plain, _ = train((jax.device_put(b, device) for b in host_batches()))  # transfer, then step
produced = 0
p_ours, made = train(prefetch_to_device(host_batches(), AHEAD, device))
print(f"device: {device}; batches made by the host when step i started: {made}")
assert made == [min(i + AHEAD, N_STEPS) for i in range(N_STEPS)]  # always AHEAD batches ahead

# grain's helper: a thread fills a host buffer, another moves its batches to the device.
dataset = grain.MapDataset.source(list(host_batches())).to_iter_dataset()
iterator = iter(grain.experimental.device_put(dataset, device, cpu_buffer_size=4, device_buffer_size=AHEAD))
p_grain, _ = train(iterator)
iterator.close()  # stop its threads now,
del iterator  # and free it while Python still runs (a late clean-up prints to stderr)
same = [all(jnp.allclose(a, b) for a, b in zip(jax.tree.leaves(p_plain), jax.tree.leaves(q))) for q in (p_ours, p_grain)]
print("same parameters after", N_STEPS, "steps (ours, grain):", same)
assert same == [True, True]

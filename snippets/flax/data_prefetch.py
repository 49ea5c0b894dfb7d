"""Asynchronous dispatch: the host prepares and sends the next batch while the device computes."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def heavy(a):  # a few large matrix products: long enough to watch
    for _ in range(4):
        a = jnp.tanh(a @ a)
    return a


a = jnp.full((1024, 1024), 1 / 1024)
heavy(a).block_until_ready()  # compile once, outside the check
out = heavy(a)
ready_at_once = out.is_ready()  # does not wait: False while the work is queued or still running
print("ready right after the call returned:", ready_at_once)  # not asserted: a fast device may be done
np.asarray(out)  # converting to NumPy waits for the result
assert out.is_ready()
out = heavy(a)
float(out[0, 0])  # so does converting to a Python number
assert out.is_ready()


def prefetch(batches):
    """Yield device batches, with the copy of the next batch already started."""
    it = iter(batches)
    ahead = jax.device_put(next(it))  # device_put returns at once
    for batch in it:
        current, ahead = ahead, jax.device_put(batch)  # send batch k+1 ...
        yield current  # ... before the step on batch k is dispatched
    yield ahead


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


rng = np.random.default_rng(0)
data = [(rng.normal(size=(32, 8)).astype(np.float32),
         rng.normal(size=32).astype(np.float32)) for _ in range(20)]  # host batches


def train(batches):
    w, losses = jnp.zeros(8), []
    for x, y in batches:
        w, loss = sgd_step(w, x, y)  # returns at once; the loop moves on to the next batch
        losses.append(loss)  # kept as a jax.Array: no float() here, so no wait
    return w, jnp.stack(losses)


w_plain, loss_plain = train(data)
w_pre, loss_pre = train(prefetch(data))
print("steps:", len(loss_pre), "| prefetched == plain:", bool(jnp.array_equal(w_pre, w_plain)))
assert jnp.array_equal(w_pre, w_plain) and jnp.array_equal(loss_pre, loss_plain)
assert len(loss_pre) == len(data)

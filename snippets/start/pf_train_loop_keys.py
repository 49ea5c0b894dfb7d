"""Thread a key through a training loop: split once per step and pass the subkey in."""
import jax
import jax.numpy as jnp

KEEP = 0.8  # dropout keep probability


def loss(w, key, x, y):
    keep = jax.random.bernoulli(key, KEEP, x.shape)  # a fresh dropout mask per key
    pred = jnp.where(keep, w * x / KEEP, 0.0)
    return jnp.mean((pred - y) ** 2)


@jax.jit
def train_step(w, key, x, y):
    return w - 0.1 * jax.grad(loss)(w, key, x, y)


def train(seed, x, y, steps=5):
    key = jax.random.key(seed)
    w = jnp.float32(0.0)
    step_keys = []
    for _ in range(steps):
        key, subkey = jax.random.split(key)  # keep `key` for later steps
        w = train_step(w, subkey, x, y)
        step_keys.append(jax.random.key_data(subkey))
    return w, jnp.stack(step_keys)


x = jnp.linspace(-1.0, 1.0, 8)
y = 3.0 * x
w_a, keys_a = train(0, x, y)
w_b, _ = train(0, x, y)
w_c, _ = train(1, x, y)
print("seed 0:", w_a, "| seed 0 again:", w_b, "| seed 1:", w_c)
assert w_a == w_b  # same seed: the whole run repeats exactly
assert w_a != w_c  # another seed: other masks, another result
# Every step drew its mask from a key used nowhere else.
assert len({tuple(k.tolist()) for k in keys_a}) == len(keys_a)

"""lax.map with batch_size, plus jax.checkpoint, cuts the scratch memory of a batched loss and its gradient."""
import jax
import jax.numpy as jnp

jax.config.update("jax_default_matmul_precision", "float32")  # no TF32 on GPUs: all versions round alike

k1, k2 = jax.random.split(jax.random.key(0))
x = jax.random.normal(k1, (2048, 64))  # 2048 queries
c = jax.random.normal(k2, (2048, 64))  # 2048 keys: the full score matrix is 2048 x 2048 float32 = 16 MiB


def score(xi, c):  # one query against all keys
    return jax.nn.logsumexp(c @ xi)


def full(c, x):  # vmap: all 2048 rows of scores at once
    return jax.vmap(score, (0, None))(x, c).mean()


def chunked(c, x):  # 8 chunks of 256 queries, one after the other
    return jax.lax.map(lambda xi: score(xi, c), x, batch_size=256).mean()


def chunked_remat(c, x):  # the same, and the backward pass recomputes each chunk's scores
    return jax.lax.map(jax.checkpoint(lambda xi: score(xi, c)), x, batch_size=256).mean()


MiB = 2**20
temps, compiled = {}, {}
for f in (full, chunked, chunked_remat):
    loss = jax.jit(f).lower(c, x).compile()
    grad = jax.jit(jax.grad(f)).lower(c, x).compile()
    compiled[f.__name__] = loss, grad
    temps[f.__name__] = loss.memory_analysis().temp_size_in_bytes, grad.memory_analysis().temp_size_in_bytes
    print(f"{f.__name__:13s} temps: loss {temps[f.__name__][0] / MiB:6.1f} MiB, gradient {temps[f.__name__][1] / MiB:6.1f} MiB")

# Run the compiled programs themselves: the chunked versions compute the same numbers.
loss_gap = abs(compiled["full"][0](c, x) - compiled["chunked"][0](c, x))
grad_gap = jnp.max(jnp.abs(compiled["full"][1](c, x) - compiled["chunked_remat"][1](c, x)))
print(f"max difference: loss {loss_gap:.1e}, gradient {grad_gap:.1e}")

score_matrix = 2048 * 2048 * 4
assert loss_gap < 1e-5 and grad_gap < 1e-6
if jax.default_backend() == "cpu":  # the CPU's buffer plan (a TPU v5e reported no temporaries here)
    assert temps["full"][0] >= score_matrix  # vmap materializes the whole score matrix
    assert temps["chunked"][0] < score_matrix / 3  # two buffers of one chunk, 1/8 of the matrix each
    assert temps["chunked"][1] > score_matrix  # without remat, the backward pass keeps every chunk's scores
    assert temps["chunked_remat"][1] < score_matrix / 3  # with remat, one chunk at a time again

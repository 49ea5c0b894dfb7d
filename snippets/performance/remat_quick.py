"""jax.checkpoint on each of 6 residual blocks: the same gradient, fewer temporaries, more flops."""
import jax
import jax.numpy as jnp

N_BLOCKS, BATCH, WIDTH = 6, 512, 256
kx, *kw = jax.random.split(jax.random.key(0), 1 + 2 * N_BLOCKS)
params = [(jax.random.normal(kw[2 * i], (WIDTH, WIDTH)) / WIDTH**0.5,
           jax.random.normal(kw[2 * i + 1], (WIDTH, WIDTH)) / WIDTH**0.5) for i in range(N_BLOCKS)]
x = jax.random.normal(kx, (BATCH, WIDTH))


def block(w, h):  # a residual block: h + tanh(h W1) W2
    return h + jnp.tanh(h @ w[0]) @ w[1]


def make_loss(remat):
    blk = jax.checkpoint(block) if remat else block  # the only change
    def loss(params, x):
        h = x
        for w in params:
            h = blk(w, h)
        return jnp.mean(h**2)
    return loss


results = {}
for remat in (False, True):
    compiled = jax.jit(jax.grad(make_loss(remat))).lower(params, x).compile()
    mem = compiled.memory_analysis()  # the compiler's buffer plan, in bytes
    flops = compiled.cost_analysis()["flops"]
    results[remat] = (compiled(params, x), mem, flops)
    print(f"jax.checkpoint={remat}: temporaries {mem.temp_size_in_bytes / 2**20:.2f} MiB,"
          f" flops {flops / 1e9:.3f} G\n    arguments {mem.argument_size_in_bytes / 2**20:.2f} MiB,"
          f" outputs {mem.output_size_in_bytes / 2**20:.2f} MiB,"
          f" peak_memory_in_bytes {mem.peak_memory_in_bytes / 2**20:.2f} MiB")

(g0, mem0, fl0), (g1, mem1, fl1) = results[False], results[True]
ratios = {"flops": fl1 / fl0, "peak_memory_in_bytes": mem1.peak_memory_in_bytes / mem0.peak_memory_in_bytes}
if mem0.temp_size_in_bytes:  # a TPU v5e reported no temporaries for this program
    ratios["temporaries"] = mem1.temp_size_in_bytes / mem0.temp_size_in_bytes
print(f"{jax.default_backend()}, with / without:", ", ".join(f"{k} {v:.2f}" for k, v in ratios.items()))
assert all(jnp.allclose(a, b, atol=1e-5) for a, b in zip(jax.tree.leaves(g0), jax.tree.leaves(g1)))
assert (mem1.argument_size_in_bytes, mem1.output_size_in_bytes) == (mem0.argument_size_in_bytes,
                                                                mem0.output_size_in_bytes)  # same params, same grads
assert fl1 > fl0  # recomputation, on every backend
if jax.default_backend() == "cpu":  # the CPU's buffer plan and cost model
    assert mem1.temp_size_in_bytes < 0.75 * mem0.temp_size_in_bytes  # activations no longer kept
    assert 1.1 * fl0 < fl1 < 1.25 * fl0  # recomputation, but less than a second full forward pass
    for m in (mem0, mem1):  # the CPU's "peak" counts only arguments and outputs
        assert m.peak_memory_in_bytes == m.argument_size_in_bytes + m.output_size_in_bytes
else:  # a GPU or a TPU simulates its buffer plan, temporaries included: the peak drops with remat
    assert mem1.peak_memory_in_bytes < mem0.peak_memory_in_bytes

"""Plan a train step's memory before running it: memory_analysis() at batch 256 and 512, its parts and its peak."""
import jax
import jax.numpy as jnp


def init(key):
    k1, k2, k3 = jax.random.split(key, 3)
    return {"w1": jax.random.normal(k1, (512, 1024)) * 0.03,
            "w2": jax.random.normal(k2, (1024, 1024)) * 0.03,
            "w3": jax.random.normal(k3, (1024, 10)) * 0.03}


def loss_fn(params, x, y):
    h = jax.nn.relu(x @ params["w1"])
    h = jax.nn.relu(h @ params["w2"])
    return jnp.mean((h @ params["w3"] - y) ** 2)


def step(params, x, y):  # plain SGD, no donation
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


params = init(jax.random.key(0))
param_bytes = sum(p.nbytes for p in jax.tree.leaves(params))
MiB = 2**20
plans = {}
for batch in (256, 512):
    # ShapeDtypeStruct: compile for this batch size without allocating the batch.
    x = jax.ShapeDtypeStruct((batch, 512), jnp.float32)
    y = jax.ShapeDtypeStruct((batch, 10), jnp.float32)
    m = jax.jit(step).lower(params, x, y).compile().memory_analysis()
    # The sum of the parts: everything the plan holds at once if nothing is freed early.
    total = m.argument_size_in_bytes + m.output_size_in_bytes + m.temp_size_in_bytes - m.alias_size_in_bytes
    plans[batch] = (m, total)
    print(f"batch {batch}: arguments {m.argument_size_in_bytes / MiB:.2f} MiB, outputs {m.output_size_in_bytes / MiB:.2f}, "
          f"temps {m.temp_size_in_bytes / MiB:.2f}, aliased {m.alias_size_in_bytes / MiB:.2f}: "
          f"sum {total / MiB:.2f} MiB, peak_memory_in_bytes {m.peak_memory_in_bytes / MiB:.2f} MiB")

(m1, total1), (m2, total2) = plans[256], plans[512]
temps = f"temps x{m2.temp_size_in_bytes / m1.temp_size_in_bytes:.2f}, " if m1.temp_size_in_bytes else ""
peak = f", peak x{m2.peak_memory_in_bytes / m1.peak_memory_in_bytes:.2f}" if m1.peak_memory_in_bytes else ""
print(f"{jax.default_backend()}, doubling the batch: {temps}sum x{total2 / total1:.2f}{peak}")
# The arguments grow by the extra 256 rows of x and y; the outputs (new params, loss) do not change.
extra = m2.argument_size_in_bytes - m1.argument_size_in_bytes
print(f"the extra rows of x and y: {256 * (512 + 10) * 4} bytes of data, {extra} bytes of arguments")
assert m1.output_size_in_bytes == m2.output_size_in_bytes >= param_bytes
assert m1.alias_size_in_bytes == m2.alias_size_in_bytes == 0  # nothing donated
assert extra >= 256 * (512 + 10) * 4  # a TPU pads y's rows of 10 values: it stores (8, 128) tiles
if jax.default_backend() == "cpu":
    assert extra == 256 * (512 + 10) * 4  # exactly the new rows' bytes
    # On the CPU that built the page the scratch space (activations, gradients) about doubles with the batch.
    assert 1.7 < m2.temp_size_in_bytes / m1.temp_size_in_bytes < 2.3
    assert total2 < 1.5 * total1  # the parameters, not the batch, dominate at this size
    # XLA:CPU's peak_memory_in_bytes is the arguments plus the outputs (and a few scalars): no temporaries.
    for m, total in plans.values():
        assert 0 <= m.peak_memory_in_bytes - (m.argument_size_in_bytes + m.output_size_in_bytes) < 1024
        assert m.peak_memory_in_bytes < total

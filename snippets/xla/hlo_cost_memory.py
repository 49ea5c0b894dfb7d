"""cost_analysis() and memory_analysis(): XLA's estimates for a compiled program, before it runs."""
import jax
import jax.numpy as jnp


def mlp(w1, w2, x):
    return jnp.tanh(x @ w1) @ w2  # the hidden layer, 64 x 256, exists only inside the program


w1, w2, x = jnp.ones((128, 256)), jnp.ones((256, 10)), jnp.ones((64, 128))
compiled = jax.jit(mlp).lower(w1, w2, x).compile()

cost = compiled.cost_analysis()  # a dict; keys and values depend on the backend
print({key: cost[key] for key in ("flops", "transcendentals", "bytes accessed")})
if jax.default_backend() == "cpu":  # the CPU's cost model; a GPU counts by its own rules
    assert cost["flops"] == 2 * 64 * 128 * 256 + 2 * 64 * 256 * 10  # two matrix products
    assert cost["transcendentals"] == 64 * 256  # one tanh per hidden unit

memory = compiled.memory_analysis()  # bytes, per device
unpadded = w1.nbytes + w2.nbytes + x.nbytes  # what the three arrays hold
print(f"arguments {memory.argument_size_in_bytes} (nbytes of the inputs: {unpadded}), "
      f"output {memory.output_size_in_bytes} (nbytes: {64 * 10 * 4}), "
      f"temporaries {memory.temp_size_in_bytes}, aliased {memory.alias_size_in_bytes}")
assert memory.alias_size_in_bytes == 0  # no donation, no output reuses an input's buffer
if jax.default_backend() == "cpu":  # the CPU's buffers hold exactly nbytes, and its own buffer plan
    assert memory.argument_size_in_bytes == unpadded
    assert memory.output_size_in_bytes == 64 * 10 * 4  # float32 result
    assert memory.temp_size_in_bytes >= 64 * 256 * 4  # room for the hidden activations
else:  # a TPU pads arrays to (8, 128) tiles: w2 (256, 10) and the (64, 10) result take more
    assert memory.argument_size_in_bytes >= unpadded and memory.output_size_in_bytes >= 64 * 10 * 4

# Donating w1 lets XLA write the result into w1's buffer when shapes and dtypes match.
update = jax.jit(lambda w, g: w - 0.1 * g, donate_argnums=0).lower(w1, w1).compile()
print("aliased bytes with donate_argnums=0:", update.memory_analysis().alias_size_in_bytes)
assert update.memory_analysis().alias_size_in_bytes == w1.nbytes

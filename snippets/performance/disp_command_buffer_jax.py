"""Set XLA:GPU command buffers (CUDA graphs) for one jax.jit with compiler_options."""
import jax
import jax.numpy as jnp


def many_small_steps(h, xs):  # a scan of tiny steps: on a GPU, a few small kernels per step
    return jax.lax.scan(lambda h, x: (jnp.tanh(h * 0.9 + x), None), h, xs)[0]


h, xs = jnp.zeros(16), jax.random.normal(jax.random.key(0), (100, 16))
settings = {
    "off": {"xla_gpu_enable_command_buffer": ""},  # an empty list records nothing
    "with loops": {"xla_gpu_enable_command_buffer": "FUSION,CUBLAS,CUSTOM_CALL,CUDNN,WHILE,CONDITIONAL",
                   "xla_gpu_graph_min_graph_size": 1},  # capture even a region of one operation
}
reference = jax.jit(many_small_steps)(h, xs)
for name, options in settings.items():
    out = jax.jit(many_small_steps, compiler_options=options)(h, xs)
    print(f"{name}: compiled and ran on {jax.default_backend()}, same result: {bool(jnp.allclose(out, reference))}")
    assert jnp.allclose(out, reference, atol=1e-6)  # the schedule of launches changes, not the numbers

# XLA_FLAGS also takes "+WHILE" (add to the default list); compiler_options wants the full list.
try:
    jax.jit(many_small_steps, compiler_options={"xla_gpu_enable_command_buffer": "+WHILE"})(h, xs)
except jax.errors.JaxRuntimeError as err:
    message = str(err)
print("compiler_options with '+WHILE':", message)
assert "is not a valid enum value" in message

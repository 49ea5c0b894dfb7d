"""pl.CostEstimate: what a pallas_call tells XLA's cost analysis, and what cost_analysis() then counts."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

ON_TPU = jax.default_backend() == "tpu"
print(jax.devices()[0].device_kind, "|", "compiled for the TPU" if ON_TPU else "TPU interpret mode: no TPU here")

M, K, N, B = 256, 256, 256, 128  # exp(a @ b) in a 2 x 2 grid of (128, 128) output blocks


def kernel(a_ref, b_ref, o_ref):
    o_ref[...] = jnp.exp(jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32))


def reference(a, b):
    return jnp.exp(a @ b)


# What the kernel does in all: 2MKN flops, one exp per output, each operand read once, the output written once.
hand = pl.CostEstimate(flops=2 * M * K * N, transcendentals=M * N, bytes_accessed=4 * (M * K + K * N + M * N))
traced = pl.estimate_cost(reference, jax.ShapeDtypeStruct((M, K), jnp.float32),
                          jax.ShapeDtypeStruct((K, N), jnp.float32))  # the same figures, from the jnp version
print("by hand:        ", hand)
print("pl.estimate_cost:", traced)
assert (traced.flops, traced.transcendentals, traced.bytes_accessed) == (
    hand.flops, hand.transcendentals, hand.bytes_accessed)


def exp_matmul(a, b, cost_estimate, interpret):
    return pl.pallas_call(
        kernel, out_shape=jax.ShapeDtypeStruct((M, N), jnp.float32), grid=(M // B, N // B),
        in_specs=[pl.BlockSpec((B, K), lambda i, j: (i, 0)), pl.BlockSpec((K, B), lambda i, j: (0, j))],
        out_specs=pl.BlockSpec((B, B), lambda i, j: (i, j)),
        cost_estimate=cost_estimate, interpret=interpret)(a, b)


a = jax.random.normal(jax.random.key(0), (M, K), jnp.float32) / 16
b = jax.random.normal(jax.random.key(1), (K, N), jnp.float32) / 16
mode = False if ON_TPU else pltpu.InterpretParams()
counted = {}
for name, estimate in [("without", None), ("with", hand)]:
    f = jax.jit(lambda a, b: exp_matmul(a, b, estimate, mode))
    with jax.default_matmul_precision("float32"):
        # Compiled on a TPU, allow for the MXU's bfloat16 passes; interpreted, the two are the same ops.
        assert jnp.allclose(f(a, b), reference(a, b), rtol=1e-2 if ON_TPU else 1e-5), name
    cost = f.lower(a, b).compile().cost_analysis()
    counted[name] = cost.get("flops", 0.0)
    print(f"cost_analysis() {name} cost_estimate: flops {counted[name]:.0f},"
          f" transcendentals {cost.get('transcendentals', 0.0):.0f}")
xla_flops = jax.jit(reference).lower(a, b).compile().cost_analysis()["flops"]
print(f"cost_analysis() of jnp.exp(a @ b) through XLA: flops {xla_flops:.0f}")

# On every backend: lowered for a TPU (cross-platform lowering, no TPU needed), the estimate rides in
# the tpu_custom_call's backend_config, which the TPU compiler reads; without it there is none.
for name, estimate in [("without", None), ("with", hand)]:
    text = jax.jit(lambda a, b: exp_matmul(a, b, estimate, False)).trace(a, b).lower(
        lowering_platforms=("tpu",)).as_text()
    carried = f"\\22flops\\22:{hand.flops}" in text
    print(f"TPU lowering {name} cost_estimate: tpu_custom_call carries flops={hand.flops}: {carried}")
    assert "tpu_custom_call" in text and carried == (estimate is not None)

if jax.default_backend() == "cpu":  # other backends' cost analyses are not measured here
    # Interpreted, the kernel is a loop over the grid in plain XLA ops: the estimate is ignored, and
    # XLA's cost analysis counts the loop body once, that is one grid step of the 4 (plus a few index ops).
    one_step = 2 * B * K * B
    assert counted["with"] == counted["without"]
    assert one_step <= counted["without"] < 1.01 * one_step, counted
    assert xla_flops == hand.flops

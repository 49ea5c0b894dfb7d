"""compiler_options passes XLA flags to the compilation of one function."""
import jax
import jax.numpy as jnp


def f(x):
    return jnp.sqrt(x**2) + 1.0


def entry_ops(compiled):
    """The instructions of the compiled program's entry computation (after XLA's passes)."""
    text = compiled.as_text()
    body = text[text.index("ENTRY"):].split("\n}")[0]
    return [line.split("=")[0].strip() for line in body.splitlines()[1:] if "=" in line]


x = jnp.arange(8.0)
default = jax.jit(f).lower(x).compile()
# "fusion" names XLA:CPU's fusion pass. XLA:GPU and a TPU's compiler fuse in passes of other names,
# so there the flag may change nothing (on a TPU v5e the program stayed one fusion).
no_fusion = jax.jit(f, compiler_options={"xla_disable_hlo_passes": "fusion"}).lower(x).compile()
print(f"default ({jax.default_backend()}):", entry_ops(default))
print("'fusion' pass off:", entry_ops(no_fusion))
if jax.default_backend() == "cpu":  # one fused kernel for square, sqrt and add; apart without the pass
    assert len(entry_ops(no_fusion)) > len(entry_ops(default))
    assert sum("fusion" in op for op in entry_ops(default)) == 1
    assert not any("fusion" in op for op in entry_ops(no_fusion))
assert jnp.array_equal(default(x), no_fusion(x))  # only the compiled code differs

error = None
try:
    jax.jit(f, compiler_options={"xla_no_such_flag": True})(x)
except jax.errors.JaxRuntimeError as err:
    error = err
print("unknown flag:", error)
assert "No such compile option" in str(error)

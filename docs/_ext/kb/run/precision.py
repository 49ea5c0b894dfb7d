"""kb.run.precision: an accelerator's default matmul precision, emulated on the CPU.

**What it emulates.** A float32 matrix product at JAX's DEFAULT precision is not a float32
product on an accelerator (``jax.lax.Precision``'s docstring): a TPU rounds each float32 operand
to bfloat16 and does one pass on its MXU (a bfloat16 times a bfloat16 is exact in float32, and
the MXU adds in float32); an A100 or H100 computes it in TensorFloat-32 (10 mantissa bits). The
CPU computes it in full float32. So a program that compares a JAX product with a float32
reference at ``rtol=1e-6`` passes on the CPU, where the site is built and CI runs, and fails on
the reader's TPU or GPU. ``install(mode)`` makes the CPU round like the accelerator: it registers
CPU lowerings of ``dot_general`` and ``conv_general_dilated`` that wrap each float32 operand of a
DEFAULT-precision product in ``reduce_precision(exponent_bits=8, mantissa_bits=7)`` (``"bf16"``,
a TPU's one pass) or ``mantissa_bits=10`` (``"tf32"``, an A100/H100), then lower the product
with JAX's own rule. Operands of other types (bfloat16, float16, float64, integers, complex) are
left as they are.

**Which products.** JAX resolves a product's precision when the program traces it
(``jax._src.lax.lax.canonicalize_precision``): the ``precision=`` of the call, else the
``jax_default_matmul_precision`` setting (``jax.config.update`` or
``with jax.default_matmul_precision(...)``), else None. What reaches the lowering rule is its
``precision`` parameter: None, a pair of ``lax.Precision`` (one per operand), or a
``DotAlgorithm``/``DotAlgorithmPreset``. A product is rounded when it is None, a pair of
``DEFAULT`` (``"default"``, ``"bfloat16"``, ``"fastest"``; XLA takes the higher of the two
operands' precisions, so one HIGHEST operand makes the product HIGHEST) or
``DotAlgorithmPreset.DEFAULT``. HIGH, HIGHEST (``"highest"``, ``"float32"``) and every other
algorithm preset are left alone: the CPU already honours the presets it accepts
(``BF16_BF16_F32`` rounds there) and rejects the others.

**Limits.** It changes the numbers of products, and nothing else about the machine:

- The backend is still ``cpu``. A block guarded by ``jax.default_backend() == "cpu"`` runs, one
  guarded for ``"tpu"``/``"gpu"`` does not; a failure inside a CPU-only block is the emulation's,
  not the accelerator's.
- The inserted ``reduce_precision`` operations appear in HLO text (``.lower().as_text()``,
  ``.compile().as_text()``) and in ``cost_analysis()``/``memory_analysis()``: a program that
  reads or counts them sees other numbers than it would on any real backend.
- HIGH is left alone, as on a TPU (three bfloat16 passes, close to float32); a GPU computes
  HIGH (``"tensorfloat32"``) in TF32, which the ``"tf32"`` mode does not round.
- Only the process that called ``install`` is emulated: a child process the program starts
  (``subprocess``, ``multiprocessing`` with spawn) computes in full float32.
- Other differences of the accelerators are not emulated: their ``tanh``, ``exp``, ``erf`` (a
  TPU's differ from the CPU's by about 1e-6 relative), the order of their reductions, decompositions
  (``jnp.linalg`` runs LAPACK here, matmuls at default precision on a TPU).

**When.** ``install`` must run before the program's products are lowered (a compiled function
keeps its executable). It imports nothing: if ``jax`` is not imported yet, it waits for the
program's own ``import jax`` (an import hook) and registers the rules when that import is done,
so a program that sets ``JAX_NUM_CPU_DEVICES`` or ``XLA_FLAGS`` before importing jax still does
so first. ``emulated(mode)`` is the same for a block of a process that already ran JAX (the
doctests below): it clears JAX's compilation caches on the way in and out and restores JAX's own
rules after the block.

>>> import jax, jax.numpy as jnp
>>> cpu = jax.devices("cpu")[0]
>>> x, y = (jax.device_put(jnp.array(v, jnp.float32), cpu) for v in ([1 + 2**-10], [1.0]))
>>> def products():
...     return [float(jnp.dot(x, y) - 1) * 2**10,                       # DEFAULT
...             float(jnp.dot(x, y, precision="highest") - 1) * 2**10]  # per call
>>> products()                     # full float32 on the CPU: 1 + 2**-10 is exact
[1.0, 1.0]
>>> with emulated("bf16"):         # 7 mantissa bits: 1 + 2**-10 rounds to 1, but not at "highest"
...     products()
[0.0, 1.0]
>>> with emulated("tf32"):         # 10 mantissa bits: exact again
...     products()
[1.0, 1.0]
>>> with emulated("bf16"), jax.default_matmul_precision("float32"):  # the setting, as a program sets it
...     products()
[1.0, 1.0]
>>> products()                     # JAX's own rules are back
[1.0, 1.0]

Why our own code: JAX has no switch that makes the CPU compute like an accelerator, and we found
neither an XLA:CPU flag that rounds dot operands nor a library that emulates it. The nearest
setting, ``JAX_DEFAULT_MATMUL_PRECISION=BF16_BF16_F32``, is the program's own setting changed
(a program that prints or tests it sees another value), does not reach convolutions, and has no
TF32 counterpart on the CPU (``TF32_TF32_F32`` is refused there). The rules are a few lines
around JAX's own; they read JAX internals (``mlir._platform_specific_lowerings``, the rules'
``precision`` parameter), which the tests and the doctests above check on each JAX release.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import sys
from typing import Iterator

MANTISSA_BITS = {"bf16": 7, "tf32": 10}  # the exponent keeps float32's 8 bits in both
EXPONENT_BITS = 8
PRIMITIVES = ("dot_general_p", "conv_general_dilated_p")

_installed: str | None = None


def _primitives():
    from jax._src.lax import convolution, lax

    return lax.dot_general_p, convolution.conv_general_dilated_p


def rounds(precision) -> bool:
    """Whether a product whose ``precision`` parameter is this is computed at DEFAULT precision.

    >>> from jax import lax
    >>> [rounds(p) for p in (None, (lax.Precision.DEFAULT,) * 2, (lax.Precision.HIGHEST,) * 2,
    ...                      (lax.Precision.DEFAULT, lax.Precision.HIGHEST), (lax.Precision.HIGH,) * 2)]
    [True, True, False, False, False]
    >>> rounds(lax.DotAlgorithmPreset.DEFAULT), rounds(lax.DotAlgorithmPreset.F32_F32_F32)
    (True, False)
    """
    from jax._src.lax.lax import DotAlgorithmPreset, Precision

    if precision is None:
        return True
    if isinstance(precision, tuple):
        return all(p == Precision.DEFAULT for p in precision)
    return precision == DotAlgorithmPreset.DEFAULT


def _rounding(rule, mantissa_bits: int):
    """``rule`` (JAX's CPU lowering of a product) with its float32 operands rounded first."""
    import numpy as np
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir.dialects import hlo

    def lower(ctx, *operands, **params):
        if rounds(params.get("precision")):
            operands = tuple(
                hlo.reduce_precision(x, mlir.i32_attr(EXPONENT_BITS), mlir.i32_attr(mantissa_bits))
                if aval.dtype == np.float32 else x
                for x, aval in zip(operands, ctx.avals_in))
        return rule(ctx, *operands, **params)

    lower.kb_precision = mantissa_bits  # what the tests and a second install() recognise
    return lower


def _register(mode: str) -> dict:
    """Register the rounding CPU rules; return the entries they replaced (for ``_restore``)."""
    from jax._src.interpreters import mlir

    cpu = mlir._platform_specific_lowerings["cpu"]
    replaced = {}
    for primitive in _primitives():
        entry = cpu.get(primitive) or mlir._lowerings[primitive]
        rule = entry.rule
        while hasattr(rule, "kb_precision"):  # already ours (install twice): wrap JAX's own
            rule = rule.kb_original
        replaced[primitive] = cpu.get(primitive)
        wrapped = _rounding(rule, MANTISSA_BITS[mode])
        wrapped.kb_original = rule
        mlir.register_lowering(primitive, wrapped, platform="cpu", inline=entry.inline)
    return replaced


def _restore(replaced: dict) -> None:
    from jax._src.interpreters import mlir

    cpu = mlir._platform_specific_lowerings["cpu"]
    for primitive, entry in replaced.items():
        if entry is None:
            cpu.pop(primitive, None)
        else:
            cpu[primitive] = entry


class _AfterJax(importlib.abc.MetaPathFinder):
    """Finds nothing itself: when ``jax`` is first imported, it has the module run as usual and
    registers the rules right after (``jax/__init__.py`` has imported ``jax._src.lax`` by then,
    whose own ``register_lowering`` calls would otherwise replace ours)."""

    def __init__(self, mode: str):
        self.mode = mode
        self.done = False

    def find_spec(self, name, path, target=None):
        if name != "jax" or self.done:
            return None
        self.done = True  # the finders below find jax's spec; this one is not asked again
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader, mode = spec.loader, self.mode
        run = loader.exec_module

        def exec_module(module):
            run(module)
            _register(mode)

        loader.exec_module = exec_module  # this loader loads jax alone
        return spec


def install(mode: str = "bf16") -> None:
    """Make this process's CPU round DEFAULT-precision float32 products as ``mode`` does.

    ``"bf16"``: a TPU's one bfloat16 pass; ``"tf32"``: an A100/H100's TensorFloat-32. Now if
    ``jax`` is imported, else right after the program imports it. Once per process.

    >>> install("fp8")
    Traceback (most recent call last):
    ...
    ValueError: mode 'fp8': expected one of bf16, tf32
    """
    global _installed
    if mode not in MANTISSA_BITS:
        raise ValueError(f"mode {mode!r}: expected one of {', '.join(MANTISSA_BITS)}")
    if _installed is not None:
        raise RuntimeError(f"kb.run.precision: {_installed} is already installed in this process")
    _installed = mode
    jax = sys.modules.get("jax")
    if jax is not None and hasattr(jax, "jit"):  # jax is imported (not half-way)
        _register(mode)
    else:
        sys.meta_path.insert(0, _AfterJax(mode))


@contextlib.contextmanager
def emulated(mode: str = "bf16") -> Iterator[None]:
    """``mode``'s rounding for the block only, in a process that has imported jax (tests)."""
    import jax

    if mode not in MANTISSA_BITS:
        raise ValueError(f"mode {mode!r}: expected one of {', '.join(MANTISSA_BITS)}")
    jax.clear_caches()
    replaced = _register(mode)
    try:
        yield
    finally:
        _restore(replaced)
        jax.clear_caches()

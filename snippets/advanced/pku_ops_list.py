"""The ready-made kernels in jax.experimental.pallas.ops, listed without importing them."""
import importlib.util
import pathlib

import jax
import jax.experimental.pallas.ops as ops

root = pathlib.Path(ops.__file__).parent
modules = sorted(p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.py")
                 if p.name != "__init__.py")
deprecated = []
for name in modules:
    source = (root / f"{name}.py").read_text()
    # The deprecated modules warn on import; read their source instead of importing them.
    if "DeprecationWarning" in source:
        deprecated.append(name)
    print(f"{name:45s}  (deprecated: warns on import)" if name in deprecated else name)
print(f"jax {jax.__version__}: {len(modules)} modules, {len(deprecated)} deprecated")
assert {"gpu/attention", "gpu/rms_norm", "tpu/flash_attention", "tpu/megablox/gmm",
        "tpu/paged_attention/paged_attention_kernel", "tpu/splash_attention/splash_attention_kernel",
        } <= set(modules)
assert {"gpu/attention", "gpu/layer_norm", "gpu/rms_norm", "gpu/softmax"} <= set(deprecated)
assert not any(name.startswith("tpu/") for name in deprecated)
assert importlib.util.find_spec("jax.experimental.pallas.ops.tpu.megablox") is not None

"""What the persistent cache key hashes: a dump flag leaves it alone, any other XLA flag changes it."""
import json
import os
import subprocess
import sys
import tempfile

CHILD = """
import json, logging, sys
import jax
import jax.numpy as jnp

jax.config.update("jax_compilation_cache_dir", sys.argv[1])
records = []
class Keep(logging.Handler):
    def emit(self, record):
        records.append(record.getMessage())
for name in ("jax._src.cache_key", "jax._src.compiler"):  # JAX's module loggers
    log = logging.getLogger(name)
    log.setLevel(logging.DEBUG)
    log.addHandler(Keep())
    log.propagate = False  # keep the debug lines out of stderr

def tiny(x):
    return x + 1.0

def f(x):
    for _ in range(20):
        x = jnp.sin(x) @ x
    return x

x = jnp.ones((32, 32))
defaults = {"min_compile_time_secs": jax.config.jax_persistent_cache_min_compile_time_secs,
            "min_entry_size_bytes": jax.config.jax_persistent_cache_min_entry_size_bytes}
jax.jit(tiny)(x)  # compiles in well under a second: not written with the default threshold
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)  # write every entry from now on
records.clear()
jax.jit(f)(x)
prefix = "get_cache_key hash of serialized "
parts = dict(m[len(prefix):].split(": ") for m in records if m.startswith(prefix))
hit = any(m.startswith("Persistent compilation cache hit for 'jit_f'") for m in records)
print(json.dumps({"defaults": defaults, "parts": parts, "hit": hit}))
"""

with tempfile.TemporaryDirectory() as tmp:
    cache_dir = os.path.join(tmp, "cache")
    runs = {}
    for label, flags in (("no flags", ""),
                         ("dump flag", f"--xla_dump_to={os.path.join(tmp, 'dump')}"),
                         ("other flag", "--xla_cpu_enable_fast_math=false")):  # already the default value
        env = dict(os.environ, XLA_FLAGS=flags)
        out = subprocess.run([sys.executable, "-c", CHILD, cache_dir], env=env, check=True,
                             capture_output=True, text=True).stdout
        runs[label] = json.loads(out)
        # The file names are the keys: "<module name>-<sha256 of the parts>-cache" (jax/_src/lru_cache.py).
        runs[label]["files"] = sorted(n for n in os.listdir(cache_dir) if n.endswith("-cache"))
        print(f"{label:10}: XLA_FLAGS={flags.replace(tmp, '<tmp>')!r}; cache hit {runs[label]['hit']}; "
              f"entries {[n[:14] + '...' for n in runs[label]['files']]}")
    dumped = os.path.isdir(os.path.join(tmp, "dump"))

print("defaults:", runs["no flags"]["defaults"])
parts = runs["no flags"]["parts"]
print("hashed parts:", list(parts))
changed = [p for p in parts if runs["other flag"]["parts"][p] != parts[p]]
print("parts that the other flag changed:", changed)
assert runs["no flags"]["defaults"] == {"min_compile_time_secs": 1.0, "min_entry_size_bytes": 0}
assert [n.split("-")[0] for n in runs["no flags"]["files"]] == ["jit_f"]  # jit_tiny was too quick
assert dumped and runs["dump flag"]["hit"] and runs["dump flag"]["parts"] == parts  # same key
assert runs["dump flag"]["files"] == runs["no flags"]["files"]  # nothing new written
assert not runs["other flag"]["hit"] and changed == ["XLA flags"]  # only the flags' hash moved
assert len(runs["other flag"]["files"]) == 2  # a second entry for the same function

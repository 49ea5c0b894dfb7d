"""Cold and warm processes: a training step compiled once, then loaded from JAX_COMPILATION_CACHE_DIR."""
# The timings this program prints differ from run to run and from machine to machine.
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

CHILD = """
import json, logging, time
start = time.perf_counter()
import jax
import jax.numpy as jnp

hits = []  # JAX logs each hit at DEBUG level from its compiler module's logger
class Keep(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Persistent compilation cache hit for"):
            hits.append(record.getMessage().split("'")[1])  # the module name, e.g. jit_step
log = logging.getLogger("jax._src.compiler")
log.setLevel(logging.DEBUG)
log.addHandler(Keep())
log.propagate = False

def loss(params, x, y):
    for w in params:  # 12 layers, unrolled by the Python loop
        x = jnp.tanh(x @ w)
    return jnp.mean((x - y) ** 2)

@jax.jit
def step(params, x, y):
    grads = jax.grad(loss)(params, x, y)
    return [w - 0.1 * g for w, g in zip(params, grads)]

keys = jax.random.split(jax.random.key(0), 13)
params = [jax.random.normal(k, (128, 128)) / 12 for k in keys[:12]]
x = jax.random.normal(keys[12], (64, 128))
imported = time.perf_counter()
lowered = step.lower(params, x, x)  # tracing and lowering run in every process
lowered_at = time.perf_counter()
compiled = lowered.compile()  # XLA compiles, or JAX loads the entry from the cache
compiled_at = time.perf_counter()
new = compiled(params, x, x)
print(json.dumps({"import": imported - start, "lower": lowered_at - imported,
                  "compile": compiled_at - lowered_at, "hits": hits,
                  "backend": jax.default_backend(), "checksum": float(sum(w.sum() for w in new))}))
"""

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores")
runs = []
with tempfile.TemporaryDirectory() as cache_dir:
    # The CI way to turn the cache on: environment variables, read when jax is imported.
    env = dict(os.environ, JAX_COMPILATION_CACHE_DIR=cache_dir,
               JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0")  # write even if it compiles in < 1 s
    # A throwaway child first: importing jax reads jaxlib's large shared libraries, and the first process
    # to do so also fills the OS page cache. Without it, the warm process would import faster for that reason.
    subprocess.run([sys.executable, "-c", "import jax"], env=env, check=True, capture_output=True)
    for label in ("cold", "warm"):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD], env=env, check=True,
                             capture_output=True, text=True).stdout
        runs.append(dict(json.loads(out), process=time.perf_counter() - start))
        runs[-1]["entries"] = sum(name.endswith("-cache") for name in os.listdir(cache_dir))
        r = runs[-1]
        print(f"{label}: backend {r['backend']}, whole process {r['process']:.2f} s, import "
              f"{r['import']:.2f} s, lower {r['lower']:.3f} s, compile {r['compile']:.3f} s; "
              f"jit_step from the cache: {'jit_step' in r['hits']}; entries in the folder: {r['entries']}")

cold, warm = runs
print(f"warm compile / cold compile: {warm['compile'] / cold['compile']:.2f} (asserted < 0.5)")
assert cold["hits"] == [] and "jit_step" in warm["hits"]  # the warm process read the step from the cache
assert warm["entries"] == cold["entries"] > 1  # threshold 0: the small helper programs were written too
assert warm["compile"] < 0.5 * cold["compile"]  # loading is much faster than compiling
assert warm["checksum"] == cold["checksum"]  # the loaded program computes the same update

"""The persistent compilation cache: a second process loads the compiled programs from disk."""
# The timings this program prints differ from run to run and from machine to machine.
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

CHILD = """
import json, sys, time
import jax
import jax.numpy as jnp

jax.config.update("jax_compilation_cache_dir", sys.argv[1])  # before the first compilation
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)  # default 1: skip quick compiles
hits = []
jax.monitoring.register_event_listener(
    lambda event, **kwargs: hits.append(event) if event == "/jax/compilation_cache/cache_hits" else None)

def unrolled(x):
    for _ in range(100):  # a Python loop: 100 copies of the body, slow to compile
        x = jnp.sin(x) * 1.01 + jnp.cos(x[::-1])
    return x

seconds = []
for n in (64, 65, 66):  # three shapes: three programs, three timed compilations
    lowered = jax.jit(unrolled).lower(jax.ShapeDtypeStruct((n,), jnp.float32))
    start = time.perf_counter()
    lowered.compile()  # XLA compiles here, or loads the program from the cache
    seconds.append(time.perf_counter() - start)
print(json.dumps({"backend": jax.default_backend(), "seconds": seconds, "hits": len(hits)}))
"""

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores")
runs = []
with tempfile.TemporaryDirectory() as cache_dir:
    # The third process adds one flag to XLA_FLAGS: the cache key hashes the flags (jax/_src/cache_key.py).
    for label, flag in (("first process", ""), ("second process", ""),
                        ("third process, one more XLA flag", "--xla_cpu_enable_fast_math=false")):
        env = dict(os.environ, XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") + " " + flag).strip())
        out = subprocess.run([sys.executable, "-c", CHILD, cache_dir], check=True, env=env,
                             capture_output=True, text=True).stdout
        runs.append(json.loads(out))
        # JAX names each compiled program "<key>-cache" (jax/_src/lru_cache.py); on a GPU, XLA also
        # keeps its autotuning results in a folder of the same directory, which is not counted here.
        files = sorted(f for f in os.listdir(cache_dir) if f.endswith("-cache"))
        runs[-1]["files"] = len(files)
        print(f"{label}: backend {runs[-1]['backend']}, median compile "
              f"{statistics.median(runs[-1]['seconds']):.3f} s, cache hits {runs[-1]['hits']}, "
              f"entries in the cache {len(files)}")
    print("for example:", files[0][:24] + "...")

cold, warm = (statistics.median(run["seconds"]) for run in runs[:2])
print(f"second / first: {warm / cold:.2f} (asserted < 0.5)")
assert runs[0]["hits"] == 0 and runs[1]["hits"] == 3  # every program came from the cache
assert runs[0]["files"] == runs[1]["files"] == 3  # one entry per program; the second process added none
assert runs[2]["hits"] == 0 and runs[2]["files"] == 6  # another flag, other keys: three new entries
assert warm < 0.5 * cold  # loading is much faster than compiling

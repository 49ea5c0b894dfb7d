"""Launch 2 JAX processes with 4 CPU devices each on this machine; they share one 8-device mesh."""
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The program that every process runs; only its process id differs.
WORKER = r"""
import sys
import jax
import jax.numpy as jnp
import numpy as np
from jax import P
from jax.experimental import multihost_utils
from jax.sharding import NamedSharding

port, pid, report = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# Python's lines go to a file of their own: gloo's C++ code writes to the same stdout at any moment.
sys.stdout = open(report, "w", buffering=1)
jax.distributed.initialize(  # before any other JAX call
    coordinator_address=f"127.0.0.1:{port}", num_processes=2, process_id=pid,
    coordinator_bind_address=f"127.0.0.1:{port}",  # listen on loopback only
    initialization_timeout=30)  # give up if the other process never connects
me = jax.process_index()
print(f"process {me} of {jax.process_count()}: {jax.local_device_count()} local devices,",
      f"{jax.device_count()} global, collectives: {jax.config.jax_cpu_collectives_implementation}")
print("global devices by process:",
      {p: [d.id for d in jax.devices() if d.process_index == p] for p in range(2)})
assert jax.local_devices() == [d for d in jax.devices() if d.process_index == me]

mesh = jax.make_mesh((8,), ("data",))  # one mesh over the devices of both processes
rows = np.arange(16.0).reshape(8, 2)[4 * me: 4 * me + 4]  # this process loads its 4 rows
x = jax.make_array_from_process_local_data(NamedSharding(mesh, P("data")), rows)
print("local rows", rows[:, 0].tolist(), "-> global array", x.shape,
      "| addressable shards:", len(x.addressable_shards))

total = jax.jit(jnp.sum)(x)  # the compiler inserts the cross-process all-reduce
psum = jax.shard_map(lambda b: jax.lax.psum(b.sum(), "data"), mesh=mesh,
                     in_specs=P("data"), out_specs=P())(x)
print("jit sum:", float(total), "| shard_map psum:", float(psum))
y = jax.jit(lambda a: 2 * a + 1)(x)  # elementwise: each device computes its own rows
try:
    np.asarray(y)  # half of y lives in the other process
except RuntimeError as err:
    print("np.asarray(y): RuntimeError:", str(err).split(". ")[0])
try:
    multihost_utils.process_allgather(y)  # tiled=False, the default
except ValueError as err:
    print("process_allgather(y): ValueError:", err)
print("process_allgather(y)[:, 0]:", multihost_utils.process_allgather(y, tiled=True)[:, 0].tolist())
jax.distributed.shutdown()
"""

with socket.socket() as s:  # let the OS pick a free port on the loopback interface
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
# JAX's docs warn that proxy variables can make initialize() hang: leave them out.
env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS" and not k.lower().endswith("_proxy")}
env.update(JAX_PLATFORMS="cpu", JAX_NUM_CPU_DEVICES="4")  # CPU by design: 2 processes x 4 emulated devices on one host
folder = Path(tempfile.mkdtemp())
reports = [folder / f"process-{i}.txt" for i in range(2)]
procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(port), str(i), str(reports[i])], env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(2)]
deadline = time.monotonic() + 120
try:
    outs = [p.communicate(timeout=max(1, deadline - time.monotonic())) for p in procs]
finally:  # never leave a process behind, even after a timeout or an error
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()

total, views = sum(range(16)), []
for i, (p, (out, err)) in enumerate(zip(procs, outs)):
    assert p.returncode == 0, err
    gloo = out.count("connected to 7 peer ranks")  # gloo's own lines, on the process's stdout
    lines = reports[i].read_text().splitlines()
    views.append(lines)
    print(f"----- process {i}")
    print("\n".join(lines))
    print(f"(gloo: {gloo} ranks in this process, each connected to 7 peer ranks)")
    assert gloo == 4
    assert lines[0] == f"process {i} of 2: 4 local devices, 8 global, collectives: gloo"
    assert f"jit sum: {total:.1f} | shard_map psum: {total:.1f}" in lines
    assert f"process_allgather(y)[:, 0]: {[2.0 * r + 1 for r in range(0, 16, 2)]}" in lines
    assert any(ln.startswith("np.asarray(y): RuntimeError: Fetching value") for ln in lines)
    assert any(ln.startswith("process_allgather(y): ValueError:") and "tiled=True" in ln
               for ln in lines)
assert views[0][1] == views[1][1]  # both processes list the same global devices
for report in reports:  # leave nothing behind
    report.unlink()
folder.rmdir()

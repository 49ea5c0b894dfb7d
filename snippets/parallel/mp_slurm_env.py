"""On Slurm, jax.distributed.initialize() needs no arguments: it reads the variables srun sets."""
import os
import socket
import subprocess
import sys

WORKER = r"""
import jax
jax.distributed.initialize()  # no arguments: everything comes from the environment
print(f"process {jax.process_index()} of {jax.process_count()},",
      f"{jax.local_device_count()} local devices of {jax.device_count()}")
jax.distributed.shutdown()
"""

with socket.socket() as s:  # a free port on the loopback interface
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
base = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS" and not k.lower().endswith("_proxy")}
base.update(JAX_PLATFORMS="cpu",  # CPU by design: 2 processes x 4 emulated devices on one host
            JAX_NUM_CPU_DEVICES="4",
            JAX_COORDINATOR_PORT=str(port),  # else JAX derives a port from the job id
            JAX_COORDINATOR_BIND_ADDRESS=f"127.0.0.1:{port}")  # listen on loopback only
# What `srun --ntasks=2` would set for a job on one node named 127.0.0.1:
slurm = dict(SLURM_JOB_ID="4242", SLURM_STEP_NODELIST="127.0.0.1", SLURM_NTASKS="2")
procs = [subprocess.Popen([sys.executable, "-c", WORKER], text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE,
                          env=base | slurm | dict(SLURM_PROCID=str(i), SLURM_LOCALID=str(i)))
         for i in range(2)]
try:
    outs = [p.communicate(timeout=60) for p in procs]
finally:  # never leave a process behind
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()

for i, (p, (out, err)) in enumerate(zip(procs, outs)):
    assert p.returncode == 0, err
    print(f"SLURM_PROCID={i}:", out.strip())
    assert out.strip() == f"process {i} of 2, 4 local devices of 8"

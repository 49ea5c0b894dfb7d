"""jax.profiler.start_server opens the port that XProf's "Capture profile" connects to."""
import socket

import jax
import jax.numpy as jnp

with socket.socket() as probe:  # ask the OS for a free port; in a real job pick a fixed one, e.g. 9999
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]

server = jax.profiler.start_server(port)  # a gRPC profiler service inside this process
print("server:", type(server).__name__)
with socket.create_connection(("127.0.0.1", port), timeout=5):  # something now listens on the port
    print("a client can connect to the port: True")
try:
    jax.profiler.start_server(port + 1)
except ValueError as err:
    print("second start_server:", err)
    second_error = str(err)

x = jnp.ones((100, 100))
for _ in range(3):  # the job goes on; a capture would record this work
    x = jnp.tanh(x @ x)
x.block_until_ready()
jax.profiler.stop_server()
try:
    jax.profiler.stop_server()
except ValueError as err:
    print("stop_server again:", err)
    stop_error = str(err)

assert second_error == "Only one profiler server can be active at a time."
assert stop_error == "No active profiler server."

"""jax.distributed.initialize must run before anything that starts a JAX backend."""
import jax

jax.devices()  # any JAX call that needs a device starts the backend, here a 1-process one
caught = None
try:
    jax.distributed.initialize(coordinator_address="127.0.0.1:1234", num_processes=2, process_id=0)
except RuntimeError as err:
    caught = err
    print("RuntimeError:", err)
assert caught is not None and "must be called before any JAX calls" in str(caught)
assert not jax.distributed.is_initialized()  # nothing was started, nothing to shut down

"""A jit traceback: JAX removes its internal frames; JAX_TRACEBACK_FILTERING=off keeps them."""
import os
import subprocess
import sys
import sysconfig
import tempfile
import textwrap

program = textwrap.dedent("""
    import jax
    import jax.numpy as jnp

    def layer(w, x):
        return jnp.dot(w, x)  # (3, 4) @ (5,): the shapes do not match

    @jax.jit
    def model(w, x):
        return jnp.tanh(layer(w, x))

    model(jnp.ones((3, 4)), jnp.ones(5))
""")
runs = {}
with tempfile.TemporaryDirectory() as tmp:
    script = os.path.join(tmp, "tb_demo.py")
    with open(script, "w") as fh:
        fh.write(program)
    for mode in ("default", "off"):
        env = dict(os.environ)
        env.pop("JAX_TRACEBACK_FILTERING", None)  # read when jax is imported in the child
        if mode == "off":
            env["JAX_TRACEBACK_FILTERING"] = "off"
        child = subprocess.run([sys.executable, script], env=env, capture_output=True,
                               text=True, timeout=120)
        assert child.returncode == 1
        # Shorten the machine's paths in what we print.
        text = child.stderr.replace(tmp + os.sep, "")
        runs[mode] = text.replace(sysconfig.get_paths()["purelib"], "<site-packages>")

print(runs["default"].strip())  # the whole filtered traceback
frames = {mode: text.count('  File "') for mode, text in runs.items()}
print("frames shown:", frames)

error = "TypeError: dot_general requires contracting dimensions to have the same shape"
assert all(error in text for text in runs.values())
assert "JAX has removed its internal frames" in runs["default"]
assert 'tb_demo.py", line 6, in layer' in runs["default"]  # the user's line is kept
assert "_src/pjit.py" not in runs["default"] and "_src/pjit.py" in runs["off"]
assert frames["off"] > 2 * frames["default"]

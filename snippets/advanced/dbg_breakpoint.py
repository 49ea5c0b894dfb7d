"""jax.debug.breakpoint inside jit, driven by commands fed on stdin to a child process."""
import os
import re
import subprocess
import sys
import tempfile
import textwrap

program = textwrap.dedent("""
    import jax
    import jax.numpy as jnp

    @jax.jit
    def f(x):
        y = jnp.sin(x) * 2.0
        jax.debug.breakpoint()  # stops here when the compiled program runs
        return y + 1.0

    # Wait for the device: the breakpoint stops when the compiled program runs, which on a GPU or
    # TPU is after f has returned, so print could otherwise write "result:" before the prompt.
    out = f(jnp.arange(3.0)).block_until_ready()
    print("result:", out)
""")
commands = ["p y", "p y.shape, y.dtype", "w", "c"]  # print, print, where, continue
with tempfile.TemporaryDirectory() as tmp:
    script = os.path.join(tmp, "bp_demo.py")  # a file, so that `w` can show source lines
    with open(script, "w") as fh:
        fh.write(program)
    child = subprocess.run([sys.executable, script], input="\n".join(commands) + "\n",
                           capture_output=True, text=True, timeout=120)
# A TPU v5e VM without transparent hugepages adds one JAX start-up warning to stderr; nothing else may appear.
stderr = re.sub(r".*Transparent hugepages are not enabled.*\n\s*warnings\.warn\(\n", "", child.stderr)
assert child.returncode == 0 and stderr == "", child.stderr
# stdin is not a terminal, so the commands are not echoed: put each back after its prompt.
parts = child.stdout.split("(jdb) ")
transcript = parts[0] + "".join(f"(jdb) {cmd}\n{out}" for cmd, out in zip(commands, parts[1:]))
print(transcript.replace(tmp + os.sep, ""))  # hide the temporary folder

assert parts[0] == "Entering jdb:\n"
assert "Array([0.       , 1.6829419, 1.8185948], dtype=float32)" in parts[1]  # y, a real value
assert "((3,), dtype('float32'))" in parts[2]
assert "jax.debug.breakpoint()" in parts[3]  # `w` shows the user's frames
assert parts[4].startswith("result: [1. ")  # `c` resumed the program

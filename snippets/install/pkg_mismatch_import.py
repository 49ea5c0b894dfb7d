"""What `import jax` raises when the jaxlib it finds is newer than jax: a fake jaxlib, in a subprocess."""
import os
import pathlib
import subprocess
import sys
import tempfile

import jax

fake = f"0.{jax.__version_info__[1] + 1}.0"  # a jaxlib release newer than the installed jax
with tempfile.TemporaryDirectory() as tmp:
    package = pathlib.Path(tmp, "jaxlib")
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "version.py").write_text(f"__version__ = {fake!r}\n")  # all the check reads
    path = os.pathsep.join(filter(None, [tmp, os.environ.get("PYTHONPATH")]))  # the fake comes first
    result = subprocess.run(
        [sys.executable, "-c", "import jax"],
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
    )

last_line = result.stderr.strip().splitlines()[-1]
print("exit status:", result.returncode)
print(last_line)
assert result.returncode == 1
assert last_line == (
    f"RuntimeError: jaxlib version {fake} is newer than and incompatible with jax version "
    f"{jax.__version__}. Please update your jax and/or jaxlib packages."
)

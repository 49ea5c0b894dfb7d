"""uv's mirror settings: uv.toml or [[tool.uv.index]] in pyproject.toml, written and parsed (uv itself not run)."""
import shutil
import tempfile
import tomllib
from pathlib import Path

MIRROR = "https://pypi.tuna.tsinghua.edu.cn/simple"

UV_TOML = f"""\
# ~/.config/uv/uv.toml (Linux, macOS) or %APPDATA%\\uv\\uv.toml (Windows): every project of this user
[[index]]
url = "{MIRROR}"
default = true  # replaces pypi.org instead of being searched before it
"""

PYPROJECT = f"""\
[project]
name = "my-model"
version = "0.1.0"
dependencies = ["jax[cuda13]==0.12.0.1"]

# One project only; this file travels with the repository.
[[tool.uv.index]]
name = "tuna"
url = "{MIRROR}"
default = true
"""

with tempfile.TemporaryDirectory() as tmp:
    uv_toml, pyproject = Path(tmp, "uv.toml"), Path(tmp, "pyproject.toml")
    uv_toml.write_text(UV_TOML)
    pyproject.write_text(PYPROJECT)
    user = tomllib.loads(uv_toml.read_text())
    project = tomllib.loads(pyproject.read_text())

print("uv.toml:       ", user["index"])
print("pyproject.toml:", project["tool"]["uv"]["index"])
print("one command:    UV_DEFAULT_INDEX=" + MIRROR, "uv pip install ...")
print("uv on this machine:", shutil.which("uv") or "not installed, so the files were parsed, not used")

for index in (user["index"], project["tool"]["uv"]["index"]):
    assert index == [index[0]] and index[0]["url"] == MIRROR and index[0]["default"] is True

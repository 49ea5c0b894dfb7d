"""Set a PyPI mirror with `pip config`, in a throwaway home directory, and read the setting back."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

MIRROR = "https://pypi.tuna.tsinghua.edu.cn/simple"  # Tsinghua TUNA's simple index
ONE_OFF = "https://mirrors.ustc.edu.cn/pypi/simple"  # USTC's, for one command only


def pip(*args, env):
    """Run this Python's pip in a child process; no network is needed for `pip config`."""
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          env=env, capture_output=True, text=True, check=True)
    return done.stdout + done.stderr


def index_lines(text):
    return [line.strip() for line in text.splitlines() if "index-url" in line]


with tempfile.TemporaryDirectory() as tmp:
    home = Path(tmp).resolve()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}  # ignore the caller's PIP_*
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), APPDATA=str(home / "AppData"))

    # Safety first: only write if pip's user configuration file now lives in the throwaway home.
    debug = pip("config", "debug", env=env)
    user_files = [line.split(",")[0].strip() for line in debug.split("user:")[1].splitlines()[1:]]
    if not user_files or not all(Path(f).is_relative_to(home) for f in user_files):
        sys.exit("pip's user configuration is not under HOME on this system; nothing was written")

    print(pip("config", "--user", "set", "global.index-url", MIRROR, env=env).strip().replace(str(home), "~"))
    listed = pip("config", "list", env=env)
    print("pip config list:", index_lines(listed))
    debug = pip("config", "debug", env=env)
    print("pip config debug:", [line.strip().replace(str(home), "~") for line in debug.splitlines()
                                 if str(home) in line and "exists: True" in line] + index_lines(debug))
    written = [f for f in user_files if Path(f).exists()]
    assert len(written) == 1 and f"index-url = {MIRROR}" in Path(written[0]).read_text()
    assert f"global.index-url='{MIRROR}'" in listed

    # PIP_INDEX_URL wins over every configuration file, for the one command it is set for.
    once = pip("config", "list", env={**env, "PIP_INDEX_URL": ONE_OFF})
    print("with PIP_INDEX_URL:", index_lines(once))
    assert f":env:.index-url='{ONE_OFF}'" in once and f"global.index-url='{MIRROR}'" in once

    pip("config", "--user", "unset", "global.index-url", env=env)  # how to go back to pypi.org
    assert "index-url" not in pip("config", "list", env=env)
print("the throwaway home is gone; your own pip configuration was not touched")

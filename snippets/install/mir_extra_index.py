"""--index-url replaces PyPI; --extra-index-url adds a second index, and pip takes the highest version from either."""
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path


def make_wheel(folder, name, version):
    """A minimal, reproducible wheel: fixed timestamps, so the same bytes on every run."""
    dist = f"{name.replace('-', '_')}-{version}"
    files = {f"{name.replace('-', '_')}/__init__.py": f'VERSION = "{version}"\n',
             f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{dist}.dist-info/WHEEL": "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    files[f"{dist}.dist-info/RECORD"] = "".join(f"{path},,\n" for path in files) + f"{dist}.dist-info/RECORD,,\n"
    wheel = folder / f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for path, text in files.items():
            z.writestr(zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0)), text)
    return wheel


def make_index(root, name, versions):
    """A PEP 503 'simple' index in a folder: what a mirror serves, as files instead of HTTPS."""
    page = root / "simple" / name
    page.mkdir(parents=True)
    links = []
    for version in versions:
        wheel = make_wheel(root, name, version)
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        links.append(f'<a href="{wheel.as_uri()}#sha256={digest}">{wheel.name}</a><br>')
    (page / "index.html").write_text("<html><body>" + "".join(links) + "</body></html>\n")
    return (root / "simple").as_uri()


def download(*args):
    """`pip download` with every pip configuration file and PIP_* variable switched off."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")} | {"PIP_CONFIG_FILE": os.devnull}
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "download",
                           "--no-deps", "--dest", str(dest), *args], env=env, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    ours = make_index(tmp / "ours", "acme-utils", ["1.0"])  # the index you meant to use
    other = make_index(tmp / "other", "acme-utils", ["1.0", "99.0"])  # anyone can publish a higher version
    dest = tmp / "downloads"

    code, out = download("--index-url", ours, "acme-utils")
    print("--index-url ours:", sorted(p.name for p in dest.iterdir()))
    print([line.replace(str(tmp), "<tmp>") for line in out.splitlines() if line.startswith("Looking in indexes")])
    assert code == 0 and [p.name for p in dest.iterdir()] == ["acme_utils-1.0-py3-none-any.whl"]

    for p in dest.iterdir():
        p.unlink()
    code, out = download("--index-url", ours, "--extra-index-url", other, "acme-utils")
    print("--index-url ours --extra-index-url other:", sorted(p.name for p in dest.iterdir()))
    assert code == 0 and [p.name for p in dest.iterdir()] == ["acme_utils-99.0-py3-none-any.whl"]
    assert re.search(r"Looking in indexes: \S+ours/simple, \S+other/simple", out)

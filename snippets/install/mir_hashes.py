"""A requirements file that names its index and pins each wheel's sha256: pip refuses any other bytes."""
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path


def make_wheel(folder, name, version, payload=""):
    """A minimal, reproducible wheel: fixed timestamps, so the same bytes on every run."""
    dist = f"{name.replace('-', '_')}-{version}"
    files = {f"{name.replace('-', '_')}/__init__.py": f'VERSION = "{version}"\n{payload}',
             f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{dist}.dist-info/WHEEL": "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    files[f"{dist}.dist-info/RECORD"] = "".join(f"{path},,\n" for path in files) + f"{dist}.dist-info/RECORD,,\n"
    wheel = folder / f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for path, text in files.items():
            z.writestr(zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0)), text)
    return wheel


def make_index(root, name, versions, payload=""):
    """A PEP 503 'simple' index in a folder: what a mirror serves, as files instead of HTTPS."""
    page = root / "simple" / name
    page.mkdir(parents=True, exist_ok=True)
    links = []
    for version in versions:
        wheel = make_wheel(root, name, version, payload)
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        links.append(f'<a href="{wheel.as_uri()}#sha256={digest}">{wheel.name}</a><br>')
    (page / "index.html").write_text("<html><body>" + "".join(links) + "</body></html>\n")
    return (root / "simple").as_uri()


def pip(*args):
    """This Python's pip with every pip configuration file and PIP_* variable switched off."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")} | {"PIP_CONFIG_FILE": os.devnull}
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          env=env, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    mirror = make_index(tmp / "mirror", "acme-utils", ["1.0"])  # stands in for a mirror's simple index
    wheel = tmp / "mirror" / "acme_utils-1.0-py3-none-any.whl"
    code, out = pip("hash", str(wheel))  # what you run on a wheel you trust
    pinned = out.split()[-1]
    print("pip hash:", pinned)
    assert code == 0 and pinned == "--hash=sha256:" + hashlib.sha256(wheel.read_bytes()).hexdigest()

    requirements = tmp / "requirements.txt"
    requirements.write_text(f"--index-url {mirror}\nacme-utils==1.0 {pinned}\n")
    get = ("download", "--no-deps", "--no-cache-dir", "-r", str(requirements), "--dest")
    code, out = pip(*get, str(tmp / "first"))
    print("same bytes:", "exit", code, [p.name for p in (tmp / "first").iterdir()])
    assert code == 0 and (tmp / "first" / wheel.name).read_bytes() == wheel.read_bytes()

    make_index(tmp / "mirror", "acme-utils", ["1.0"], payload="import os  # changed\n")  # other bytes, same name
    code, out = pip(*get, str(tmp / "second"))
    print("other bytes:", "exit", code, [line.strip() for line in out.splitlines() if "HASHES" in line])
    assert code != 0 and "THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE" in out
    assert not (tmp / "second").exists() or not any((tmp / "second").iterdir())  # nothing was kept

    requirements.write_text(f"--index-url {mirror}\nacme-utils==1.0\n")  # no hash at all
    code, out = pip(*get, str(tmp / "third"), "--require-hashes")
    print("no hash, --require-hashes:", "exit", code, [line.strip() for line in out.splitlines() if "Hashes are" in line])
    assert code != 0 and "Hashes are required in --require-hashes mode" in out

"""Check the installed jax and jaxlib against the sha256 hashes in their RECORD files, offline."""
import base64
import hashlib
import importlib.metadata as md

import jax
import jaxlib
from packaging.requirements import Requirement


def record_hash(path):
    """A RECORD entry's form: urlsafe base64 of the sha256 digest, without '=' padding."""
    digest = hashlib.sha256(path.read_bytes()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def check(name, suffixes=("",)):  # by default every file that RECORD lists with a hash
    files = [f for f in md.files(name) if f.hash and f.name.endswith(suffixes)]
    bad = [str(f) for f in files if record_hash(f.locate()) != f.hash.value]
    size = sum(f.locate().stat().st_size for f in files) / 2**20
    kind = "/".join(suffixes) + " files" if suffixes != ("",) else "files"
    print(f"{name} {md.version(name)}: {len(files)} {kind} checked ({size:.0f} MiB), {len(bad)} differ")
    return files, bad


jax_files, jax_bad = check("jax", (".py",))  # every Python file of jax
lib_files, lib_bad = check("jaxlib")  # every file of jaxlib, its large shared libraries included
unhashed = [str(f) for f in md.files("jax") if f.hash is None]
print("listed without a hash:", sorted({f.split("/")[-1] if "__pycache__" not in f else "__pycache__/*.pyc"
                                        for f in unhashed}))

(wanted,) = [Requirement(r) for r in md.requires("jax") if Requirement(r).name == "jaxlib" and not Requirement(r).marker]
print("jax.__version__ =", jax.__version__, " jaxlib.__version__ =", jaxlib.__version__, " jax wants jaxlib", wanted.specifier)
assert jax_files and lib_files and not jax_bad and not lib_bad  # the files are the wheel's bytes
assert all(f.hash.mode == "sha256" for f in jax_files)
assert all(f.endswith(("RECORD", ".pyc")) for f in unhashed)  # all else carries a sha256
assert md.version("jax") == jax.__version__ and md.version("jaxlib") == jaxlib.__version__
assert wanted.specifier.contains(jaxlib.__version__)  # the pair fits together

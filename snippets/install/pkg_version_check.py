"""The check jax runs on import: jaxlib must be at least jax's minimum and no newer than jax itself."""
import importlib.metadata as md
import re

import jax
from jax._src.lib import check_jaxlib_version  # private: the function that `import jax` calls

# The public route to the accepted range: the requirement in jax's own metadata, which pip reads.
(requirement,) = [r for r in md.requires("jax") if re.match(r"jaxlib\b", r) and "extra" not in r]
minimum = re.search(r">=([\d.]+)", requirement).group(1)
print(f"jax {jax.__version__} requires {requirement}: jaxlib from {minimum} up to {jax.__version__}")
assert minimum == jax.version._minimum_jaxlib_version  # private: the number `import jax` checks against
print("installed jaxlib", md.version("jaxlib"), "->", check_jaxlib_version(jax.__version__, md.version("jaxlib"), minimum))


def error_for(jax_version, jaxlib_version):
    try:
        check_jaxlib_version(jax_version, jaxlib_version, minimum)
    except RuntimeError as error:
        return str(error)
    return None


too_new = f"0.{jax.__version_info__[1] + 1}.0"  # a fake next release
too_old = "0.4.30"  # a fake old one, far below the minimum
for jaxlib_version in (too_new, too_old):
    print(f"jaxlib {jaxlib_version}: RuntimeError: {error_for(jax.__version__, jaxlib_version)}")
assert error_for(jax.__version__, too_new) == (
    f"jaxlib version {too_new} is newer than and incompatible with jax version {jax.__version__}. "
    "Please update your jax and/or jaxlib packages."
)
assert error_for(jax.__version__, too_old) == (
    f"jaxlib is version {too_old}, but this version of jax requires version >= {minimum}."
)

# Versions compare as tuples of integers, so a fourth number counts: 0.12.0.1 is newer than 0.12.0.
print("jax 0.12.0 with jaxlib 0.12.0.1: RuntimeError:", error_for("0.12.0", "0.12.0.1"))
assert error_for("0.12.0", "0.12.0.1") is not None and error_for("0.12.0.1", "0.12.0") is None

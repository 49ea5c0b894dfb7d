"""Find the fusions in XLA's optimized HLO: many StableHLO ops become one fused kernel."""
import re

import jax
import jax.numpy as jnp


def layer(w, b, x):
    return jax.nn.gelu(x @ w + b)  # a matrix product, then a chain of elementwise ops


def computations(hlo_text):
    """Map each computation of an HLO module to the opcodes of its instructions."""
    found, name = {}, None
    for line in hlo_text.splitlines():
        if line.endswith("{") and " -> " in line:  # a header: "%name (params) -> type {"
            name = line.split()[1] if line.startswith("ENTRY") else line.split()[0]
            found[name] = []
        elif name and " = " in line:  # "%add.0 = f32[4,2]{1,0} add(%a, %b), ...": the opcode before "("
            found[name].append(re.search(r" = .*?([a-z][\w-]*)\(", line).group(1))
        elif line == "}":
            name = None
    return found


w, b, x = jnp.ones((3, 2)), jnp.zeros(2), jnp.ones((4, 3))
lowered = jax.jit(layer).lower(w, b, x)
stablehlo_ops = [line.split("= ")[1].split()[0] for line in lowered.as_text().splitlines()
                 if "= stablehlo." in line]
print(f"StableHLO: {len(stablehlo_ops)} ops, 'fusion' in the text: {'fusion' in lowered.as_text()}")

optimized = lowered.compile().as_text()
comps = computations(optimized)
entry = next(ops for name, ops in comps.items() if name.startswith("%main"))
fused = {name: ops for name, ops in comps.items() if "fused" in name}
print("optimized HLO, entry computation:", [op for op in entry if op != "parameter"])
for name, ops in fused.items():
    print(f"{name}: {len(ops)} instructions, including", sorted(set(ops) - {"parameter", "constant"}))

assert "fusion" not in lowered.as_text()  # XLA fuses, after the StableHLO
assert entry.count("fusion") >= 1 and "tanh" not in entry  # the elementwise chain left the entry
assert any("tanh" in ops for name, ops in comps.items() if not name.startswith("%main"))  # ... for a fusion
if jax.default_backend() == "cpu":  # the CPU's grouping (a dot, one fusion); other backends differ
    assert any("tanh" in ops for ops in fused.values())  # in the computation named fused_computation
    assert [op for op in entry if op != "parameter"] == ["dot", "fusion"]  # the product, one fusion
    assert "kind=kLoop" in optimized  # the fused computation runs as one loop

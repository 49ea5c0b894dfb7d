"""A class instance as a static argument: a plain class is hashed by identity, a frozen dataclass by value."""
import dataclasses

import jax
import jax.numpy as jnp

traces = {"Plain": 0, "Frozen": 0}


class Plain:  # no __eq__ or __hash__: it inherits object's, which compare identity
    def __init__(self, scale):
        self.scale = scale


@dataclasses.dataclass(frozen=True)  # generates __eq__ and __hash__ from the fields
class Frozen:
    scale: float


def scaled(x, config):
    traces[type(config).__name__] += 1  # Python code: runs only while jax.jit traces
    return x * config.scale


f = jax.jit(scaled, static_argnames="config")
x = jnp.arange(3.0)
for _ in range(3):  # three calls, each with a new instance that holds the same value
    f(x, config=Plain(2.0))
    f(x, config=Frozen(2.0))
print("traces after 3 calls with new, equal instances:", traces)
assert traces == {"Plain": 3, "Frozen": 1}
print("Plain(2.0) == Plain(2.0):", Plain(2.0) == Plain(2.0), "| Frozen(2.0) == Frozen(2.0):", Frozen(2.0) == Frozen(2.0))

# The other side of identity: a mutated instance is still the same key, so the old trace runs.
config = Plain(2.0)
before = f(x, config=config)
config.scale = 10.0
after = f(x, config=config)
print("after config.scale = 10.0:", after, "| traces:", traces["Plain"])
assert traces["Plain"] == 4 and jnp.array_equal(after, before)  # still multiplied by 2.0

# A frozen dataclass refuses the assignment instead.
try:
    Frozen(2.0).scale = 10.0
    refused = False
except dataclasses.FrozenInstanceError:
    refused = True
assert refused


@dataclasses.dataclass  # eq=True and not frozen: Python sets __hash__ to None
class Mutable:
    scale: float


try:
    f(x, config=Mutable(2.0))
    error = ""
except ValueError as err:
    error = str(err)
print("a mutable dataclass:", error.splitlines()[-1])  # the last line names the cause
assert "Non-hashable static arguments are not supported" in error and "unhashable type: 'Mutable'" in error

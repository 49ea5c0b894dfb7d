"""jax.jit keeps a weak reference to the function: a callable that cannot be weakly referenced fails."""
import functools

import jax
import jax.numpy as jnp


class Scale:
    """A small callable object; __slots__ without "__weakref__" leaves no room for weak references."""

    __slots__ = ("factor",)

    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x):
        return x * self.factor


class WeakScale(Scale):
    __slots__ = ("__weakref__",)  # the one addition jax.jit needs


x = jnp.arange(3.0)
wrapped = jax.jit(Scale(2.0))  # wrapping works; the error comes with the first call
try:
    wrapped(x)
    message = "no error"
except TypeError as error:
    message = str(error)
print("jax.jit(Scale(2.0))(x)         -> TypeError:", message)
assert "cannot create weak reference to 'Scale' object" in message

scale = Scale(2.0)
fixes = {
    "jax.jit(WeakScale(2.0))(x)": jax.jit(WeakScale(2.0))(x),
    "jax.jit(lambda v: scale(v))(x)": jax.jit(lambda v: scale(v))(x),  # or wrap it in a function
}
for name, value in fixes.items():
    print(f"{name:30s} -> {value}")
    assert jnp.allclose(value, 2 * x)
# Functions, bound methods, partials and instances of ordinary classes can all be weakly referenced.
class Plain:
    def __call__(self, v):
        return v * 2.0

    def double(self, v):
        return v * 2.0


for fn in (Plain(), Plain().double, functools.partial(lambda f, v: v * f, 2.0)):
    assert jnp.allclose(jax.jit(fn)(x), 2 * x)

"""Two things old Linen code does that Flax 0.12.12 changed: FrozenDict methods and SelfAttention."""
import warnings
import flax
import jax
import jax.numpy as jnp
from flax import linen as nn

x = jnp.ones((1, 3))
variables = nn.Dense(2).init(jax.random.key(0), x)
print("init returns:", type(variables).__name__)
try:
    variables.unfreeze()  # old code: init used to return a FrozenDict
except AttributeError as e:
    print(f"variables.unfreeze(): {type(e).__name__}: {str(e).splitlines()[0]}")
# The function form accepts both kinds, so it fits old checkpoints and new code.
for v in (variables, flax.core.freeze(variables)):
    assert type(flax.core.unfreeze(v)) is dict
assert type(variables) is dict and not hasattr(variables, "unfreeze")

# nn.SelfAttention warns; MultiHeadDotProductAttention with one input is the replacement.
seq = jax.random.normal(jax.random.key(1), (2, 5, 8))  # (batch, length, features)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old = nn.SelfAttention(num_heads=2)
    attn_vars = old.init(jax.random.key(0), seq)
    y_old = old.apply(attn_vars, seq)
print("nn.SelfAttention:", {w.category.__name__ for w in caught})
assert any(issubclass(w.category, DeprecationWarning) for w in caught)

y_new = nn.MultiHeadDotProductAttention(num_heads=2).apply(attn_vars, seq)  # same variables
print("MultiHeadDotProductAttention(x) equals SelfAttention(x):", bool(jnp.array_equal(y_new, y_old)))
assert jnp.array_equal(y_new, y_old)

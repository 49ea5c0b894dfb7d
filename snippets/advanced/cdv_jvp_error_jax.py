"""Forward mode on a custom_vjp function raises TypeError; reverse over reverse still works."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def softplus(x):
    return jnp.logaddexp(x, 0.0)


def softplus_fwd(x):
    return softplus(x), x  # the usual pattern: fwd calls the function itself


def softplus_bwd(x, g):
    return (g * jax.nn.sigmoid(x),)


softplus.defvjp(softplus_fwd, softplus_bwd)
x = jnp.float32(0.5)

for name, run in [("jax.jvp", lambda: jax.jvp(softplus, (x,), (1.0,))),
                  ("jax.jacfwd", lambda: jax.jacfwd(softplus)(x)),
                  ("jax.hessian", lambda: jax.hessian(softplus)(x))]:
    error = None
    try:
        run()
    except TypeError as err:
        error = str(err)
    print(f"{name}: TypeError: {error}")
    assert "can't apply forward-mode autodiff (jvp) to a custom_vjp function" in error

# Second derivatives in reverse over reverse differentiate the bwd rule itself.
second = jax.jacrev(jax.jacrev(softplus))(x)
s = 1 / (1 + np.exp(-0.5))
print("jacrev(jacrev(softplus))(0.5) =", second, " closed form s(1-s) =", s * (1 - s))
assert np.isclose(second, s * (1 - s), atol=1e-6)

# A fwd that computes the output with plain jnp code is itself differentiable in forward
# mode, so jax.hessian then differentiates fwd and bwd as ordinary code and succeeds.
softplus.defvjp(lambda x: (jnp.logaddexp(x, 0.0), x), softplus_bwd)
print("hessian with a plain-code fwd:", jax.hessian(softplus)(x))
assert np.isclose(jax.hessian(softplus)(x), s * (1 - s), atol=1e-6)

"""custom_jvp and custom_vjp under jit, vmap and higher-order derivatives, side by side."""
import jax
import jax.numpy as jnp
import numpy as np

bwd_traces = []


@jax.custom_jvp
def sin_jvp(x):
    return jnp.sin(x)


sin_jvp.defjvp(lambda p, t: (jnp.sin(p[0]), jnp.cos(p[0]) * t[0]))


@jax.custom_vjp
def sin_vjp(x):
    return jnp.sin(x)


def sin_vjp_bwd(cos_x, g):
    bwd_traces.append(1)  # runs when the rule is traced, not on every call
    return (cos_x * g,)


sin_vjp.defvjp(lambda x: (sin_vjp(x), jnp.cos(x)), sin_vjp_bwd)  # fwd calls the function

x, xs = jnp.float32(0.5), jnp.linspace(0.0, 1.0, 4)
checks = {  # what each transformation should give for sin
    "jit(grad)": (lambda f: jax.jit(jax.grad(f))(x), np.cos(0.5)),
    "vmap(grad)": (lambda f: jax.vmap(jax.grad(f))(xs), np.cos(xs)),
    "grad(grad)": (lambda f: jax.grad(jax.grad(f))(x), -np.sin(0.5)),
    "jvp": (lambda f: jax.jvp(f, (x,), (1.0,))[1], np.cos(0.5)),
    "jacfwd": (lambda f: jax.jacfwd(f)(x), np.cos(0.5)),
    "hessian": (lambda f: jax.hessian(f)(x), -np.sin(0.5)),
}
works = {}
for fname, f in [("custom_jvp", sin_jvp), ("custom_vjp", sin_vjp)]:
    for tname, (run, expected) in checks.items():
        try:
            works[fname, tname] = bool(np.allclose(run(f), expected, atol=1e-6))
        except TypeError as err:  # the forward-mode error; anything else is a bug here
            assert "can't apply forward-mode autodiff (jvp) to a custom_vjp" in str(err)
            works[fname, tname] = False
    print(f"{fname}: " + ", ".join(f"{t} {'ok' if works[fname, t] else 'fails'}" for t in checks))

assert all(works["custom_jvp", t] for t in checks)  # the JVP rule serves every mode and order
reverse = ["jit(grad)", "vmap(grad)", "grad(grad)"]
assert all(works["custom_vjp", t] for t in reverse)
assert not any(works["custom_vjp", t] for t in checks if t not in reverse)
g = jax.jit(jax.grad(sin_vjp))
n_before = len(bwd_traces)
for _ in range(3):
    g(x)
print("bwd traced", len(bwd_traces) - n_before, "time(s) for three jitted calls")
assert len(bwd_traces) - n_before == 1

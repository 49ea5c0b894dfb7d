"""JAX: Hessian-vector product by forward-over-reverse, jax.jvp of jax.grad, without forming H."""
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks


def loss(w, X, y):  # logistic regression, labels y in {-1, +1}
    return jnp.mean(jax.nn.softplus(-y * (X @ w)))


def hvp(w, v, X, y):  # d/dt grad(w + t v) at t = 0, which is H v
    return jax.jvp(lambda w: jax.grad(loss)(w, X, y), (w,), (v,))[1]


def hvp_numpy(w, v, X, y):  # by hand: H = X^T diag(s (1 - s)) X / m
    X, w, v = (a.astype(np.float64) for a in (X, w, v))
    s = 1 / (1 + np.exp(-y * (X @ w)))
    return X.T @ (s * (1 - s) * (X @ v)) / len(y)


def size(nbytes):
    return next(f"{nbytes / 2**k:,.1f} {u}" for k, u in [(30, "GiB"), (20, "MiB"), (10, "KiB"), (0, "bytes")]
                if nbytes >= 2**k or k == 0)


rng = np.random.default_rng(0)
for m, n in [(16, 5), (64, 100_000)]:
    X = (rng.normal(size=(m, n)) / np.sqrt(n)).astype(np.float32)
    y = np.where(rng.normal(size=m) > 0, 1.0, -1.0).astype(np.float32)
    w, v = (rng.normal(size=n).astype(np.float32) for _ in range(2))
    hv = jax.jit(hvp)(w, v, X, y)
    err = np.abs(hv - hvp_numpy(w, v, X, y)).max() / np.abs(hv).max()
    print(f"n = {n:,}: the full float32 Hessian would take {size(n * n * 4)}, "
          f"H v takes {size(hv.nbytes)}; relative error vs NumPy {err:.1e}")
    assert hv.shape == (n,) and err < 1e-4
    if n < 100:  # small enough to form H and compare
        print("H v, small problem:", np.asarray(hv))
        H = jax.hessian(loss)(w, X, y)
        assert jnp.allclose(hv, H @ v, rtol=1e-5, atol=1e-7)
        # Reverse-over-reverse, grad of <grad, v>, gives the same vector.
        rr = jax.grad(lambda w: jnp.vdot(jax.grad(loss)(w, X, y), v))(w)
        assert jnp.allclose(hv, rr, rtol=1e-5, atol=1e-7)

"""Mixed precision in JAX: bfloat16 compute with float32 master weights, against plain float32."""
# The timings this program prints differ from run to run and from machine to machine.
import collections
import functools
import os
import platform
import re
import time

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import numpy as np
import optax

rng = np.random.default_rng(0)
teacher = rng.normal(size=(32, 4))
x = rng.normal(size=(1024, 32)).astype(np.float32)
y = np.argmax(x @ teacher + rng.normal(size=(1024, 4)), axis=1)  # noisy labels
(x_train, x_test), (y_train, y_test) = np.split(x, 2), np.split(y, 2)
k1, k2, k3 = jax.random.split(jax.random.key(0), 3)
params = {"w1": jax.random.normal(k1, (32, 128)) / 32**0.5, "b1": jnp.zeros(128),
          "w2": jax.random.normal(k2, (128, 128)) / 128**0.5, "b2": jnp.zeros(128),
          "w3": jax.random.normal(k3, (128, 4)) / 128**0.5, "b3": jnp.zeros(4)}
tx = optax.adam(3e-3)


def logits_fn(params, x, dtype):
    p = jax.tree.map(lambda a: a.astype(dtype), params)  # a compute copy; the cast is differentiable
    h = jax.nn.relu(x.astype(dtype) @ p["w1"] + p["b1"])
    h = jax.nn.relu(h @ p["w2"] + p["b2"])
    return (h @ p["w3"] + p["b3"]).astype(jnp.float32)  # the softmax and the loss in float32


def loss_fn(params, x, y, dtype):
    return optax.softmax_cross_entropy_with_integer_labels(logits_fn(params, x, dtype), y).mean()


@functools.partial(jax.jit, static_argnames="dtype", donate_argnums=(0, 1))
def train_step(params, opt_state, x, y, dtype):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y, dtype)  # grads: float32, like params
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


# The float32 baseline multiplies in full float32 on every backend: at the default precision a TPU
# rounds float32 products to one bfloat16 pass (TF32 on recent NVIDIA GPUs). None: the backend's default.
PRECISION = {"float32": "highest", "bfloat16": None}
results = {}
for dtype in (jnp.float32, jnp.bfloat16):
    name = jnp.dtype(dtype).name
    p = jax.tree.map(jnp.copy, params)  # the same start for both (the step donates its input)
    s, times = tx.init(p), []
    with jax.default_matmul_precision(PRECISION[name]):  # part of the jit cache key: compiled per precision
        for step in range(40):
            start = time.perf_counter()
            p, s, loss = jax.block_until_ready(train_step(p, s, x_train, y_train, dtype))
            times.append(time.perf_counter() - start)
        acc = float(jnp.mean(jnp.argmax(logits_fn(p, x_test, dtype), axis=1) == y_test))
    results[name] = (float(loss), acc, 1e3 * min(times[1:]), p, s)  # skip compile

jaxpr = jax.make_jaxpr(loss_fn, static_argnums=3)(params, x_train, y_train, jnp.bfloat16)
dots = [e for e in jaxpr.eqns if e.primitive.name == "dot_general"]
grads = jax.eval_shape(jax.grad(functools.partial(loss_fn, dtype=jnp.bfloat16)), params, x_train, y_train)
# What the backend compiled: the jaxpr says what JAX asks for, the compiled program what runs.
compiled = {}
for name in PRECISION:
    with jax.default_matmul_precision(PRECISION[name]):
        compiled[name] = train_step.lower(params, tx.init(params), x_train, y_train, dtype=jnp.dtype(name)).compile()
temp_mib = {name: c.memory_analysis().temp_size_in_bytes / 2**20 for name, c in compiled.items()}
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print("matrix-product precision:", {name: p or "the backend's default" for name, p in PRECISION.items()})
print("matrix products in the bfloat16 forward pass:", [str(e.invars[0].aval.dtype) for e in dots])
if jax.default_backend() == "cpu":  # XLA:CPU's names: a product is a dot or a YNNPACK fusion
    text = compiled["bfloat16"].as_text()
    products = re.findall(r"= (\w+)\[([\d,]*)\]\S* (?:dot\(|fusion\(.*__ynn_fusion)", text[text.index("\nENTRY"):])
    kinds = collections.Counter(dtype for dtype, _ in products)
    in_f32 = sorted(tuple(map(int, shape.split(","))) for dtype, shape in products if dtype == "f32")
    print(f"matrix products in the compiled bfloat16 step: {dict(kinds)}; float32 ones: {in_f32}")
    weights = sorted(params[k].shape[::-1] for k in ("w1", "w2", "w3"))  # weight gradients, transposed
    assert kinds == {"bf16": 5, "f32": 3} and in_f32 == weights
    assert temp_mib["bfloat16"] > temp_mib["float32"]  # the conversions need buffers of their own
print("temporaries of the compiled step (MiB):", {name: round(t, 2) for name, t in temp_mib.items()})
print("gradient dtypes:", sorted({str(g.dtype) for g in jax.tree.leaves(grads)}))
for name, (loss, acc, ms, p, _) in results.items():
    print(f"{name:>8}: train loss {loss:.6f}, test accuracy {acc:.3f}, step {ms:.2f} ms "
          f"(fastest of 39), master weights {p['w2'].dtype}")
(l32, a32, t32, _, _), (l16, a16, t16, p16, s16) = results.values()
bf16, f32 = jnp.finfo(jnp.bfloat16), jnp.finfo(jnp.float32)
print(f"largest value: bfloat16 {float(bf16.max):.2e}, float32 {float(f32.max):.2e}; "
      f"spacing at 1: bfloat16 {float(bf16.eps):.1e}, float32 {float(f32.eps):.1e}")
print(f"bfloat16 step time / float32 step time: {t16 / t32:.2f}")
assert all(str(e.invars[0].aval.dtype) == "bfloat16" for e in dots) and len(dots) == 3
master = (grads, p16, s16[0].mu, s16[0].nu)  # gradients, weights, Adam moments
assert all(leaf.dtype == jnp.float32 for leaf in jax.tree.leaves(master))
assert bf16.max > 0.99 * f32.max and bf16.eps > 1e4 * f32.eps  # float32's range, far fewer digits
assert abs(a16 - a32) < 0.03 and abs(l16 - l32) < 0.1 * l32  # accuracy and loss close to f32

fig, (ax_time, ax_acc) = plt.subplots(1, 2, figsize=(6.4, 2.8))
ax_time.bar(["float32", "bfloat16"], [t32, t16], color=["tab:blue", "tab:orange"])
ax_time.set_ylabel("step time (ms)")
ax_time.set_title("Time per step")
ax_acc.bar(["float32", "bfloat16"], [a32, a16], color=["tab:blue", "tab:orange"])
ax_acc.set_ylim(0, 1)
ax_acc.set_ylabel("test accuracy")
ax_acc.set_title("Accuracy after training")
fig.tight_layout()
plt.show()

"""Gradient accumulation: one step over a batch of 1024 against 4 micro-batches of 256 through lax.scan."""
import jax
import jax.numpy as jnp

jax.config.update("jax_default_matmul_precision", "float32")  # no TF32 or bfloat16 passes: the two steps agree


def init(key):
    k1, k2, k3 = jax.random.split(key, 3)
    return {"w1": jax.random.normal(k1, (512, 1024)) * 0.03,
            "w2": jax.random.normal(k2, (1024, 1024)) * 0.03,
            "w3": jax.random.normal(k3, (1024, 10)) * 0.03}


def loss_fn(params, x, y):
    h = jax.nn.relu(x @ params["w1"])
    h = jax.nn.relu(h @ params["w2"])
    return jnp.mean((h @ params["w3"] - y) ** 2)


def sgd(params, grads):
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def full_step(params, x, y):  # the whole batch at once
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return sgd(params, grads), loss


def accumulated_step(params, x, y, micro=4):  # the batch in `micro` slices, one after the other
    xs = x.reshape(micro, -1, x.shape[1])
    ys = y.reshape(micro, -1, y.shape[1])

    def body(carry, xy):
        loss_sum, grad_sum = carry
        loss, grads = jax.value_and_grad(loss_fn)(params, *xy)
        return (loss_sum + loss, jax.tree.map(jnp.add, grad_sum, grads)), None

    zeros = jax.tree.map(jnp.zeros_like, params)
    (loss_sum, grad_sum), _ = jax.lax.scan(body, (jnp.zeros(()), zeros), (xs, ys))
    # Equal micro-batches: the mean of their mean losses is the full batch's mean loss.
    return sgd(params, jax.tree.map(lambda g: g / micro, grad_sum)), loss_sum / micro


params = init(jax.random.key(0))
kx, ky = jax.random.split(jax.random.key(1))
x = jax.random.normal(kx, (1024, 512))
y = jax.random.normal(ky, (1024, 10))
MiB = 2**20
plans, results = {}, {}
for step in (full_step, accumulated_step):
    compiled = jax.jit(step).lower(params, x, y).compile()
    m = plans[step.__name__] = compiled.memory_analysis()
    results[step.__name__] = compiled(params, x, y)
    print(f"{step.__name__:16s} temps {m.temp_size_in_bytes / MiB:6.2f} MiB, arguments {m.argument_size_in_bytes / MiB:.2f}, "
          f"outputs {m.output_size_in_bytes / MiB:.2f}, peak_memory_in_bytes {m.peak_memory_in_bytes / MiB:.2f} MiB")

(new_full, loss_full), (new_acc, loss_acc) = results["full_step"], results["accumulated_step"]
gap = max(float(jnp.max(jnp.abs(a - b))) for a, b in zip(jax.tree.leaves(new_full), jax.tree.leaves(new_acc)))
print(f"loss {float(loss_full):.6f} against {float(loss_acc):.6f}; largest difference of the new parameters {gap:.1e}")

assert abs(loss_full - loss_acc) < 1e-5 and gap < 1e-5  # the same step, within float32 rounding
if jax.default_backend() == "cpu":  # XLA:CPU's plan (a TPU v5e reported no temporaries for a similar step)
    full, acc = plans["full_step"].temp_size_in_bytes, plans["accumulated_step"].temp_size_in_bytes
    print(f"cpu: the accumulated step's temporaries are {acc / full:.2f} of the full step's")
    assert acc < full  # the activations of one micro-batch, not of the whole batch

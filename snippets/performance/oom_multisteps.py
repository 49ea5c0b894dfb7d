"""Gradient accumulation's memory plan with and without optax.MultiSteps, from memory_analysis()."""
import jax
import jax.numpy as jnp
import optax

BATCH, K = 2048, 4  # one batch of 2048, or K micro-batches of 512


def init(key):
    k1, k2, k3 = jax.random.split(key, 3)
    return {"w1": jax.random.normal(k1, (512, 1024)) * 0.03,
            "w2": jax.random.normal(k2, (1024, 1024)) * 0.03,
            "w3": jax.random.normal(k3, (1024, 10)) * 0.03}


def loss_fn(params, x, y):
    h = jax.nn.relu(x @ params["w1"])
    h = jax.nn.relu(h @ params["w2"])
    return jnp.mean((h @ params["w3"] - y) ** 2)


def plain_step(tx):  # one call: the gradient of the batch it gets, then tx
    def step(params, opt_state, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state
    return step


def scan_step(tx):  # one call: K micro-batches through lax.scan, their mean gradient, then tx
    def step(params, opt_state, x, y):
        def body(acc, xy):
            return jax.tree.map(jnp.add, acc, jax.grad(loss_fn)(params, *xy)), None
        xy = (x.reshape(K, -1, x.shape[1]), y.reshape(K, -1, y.shape[1]))
        acc, _ = jax.lax.scan(body, jax.tree.map(jnp.zeros_like, params), xy)
        updates, opt_state = tx.update(jax.tree.map(lambda g: g / K, acc), opt_state, params)
        return optax.apply_updates(params, updates), opt_state
    return step


def plan(step, tx, batch):  # what XLA plans for one call, with the state donated, without running it
    x, y = jax.ShapeDtypeStruct((batch, 512), jnp.float32), jax.ShapeDtypeStruct((batch, 10), jnp.float32)
    return jax.jit(step(tx), donate_argnums=(0, 1)).lower(params, tx.init(params), x, y).compile().memory_analysis()


params = init(jax.random.key(0))
adam, multi = optax.adam(1e-3), optax.MultiSteps(optax.adam(1e-3), every_k_schedule=K)
plans = {"no accumulation, batch 2048": plan(plain_step, adam, BATCH),
         "lax.scan, 4 x 512 in one call": plan(scan_step, adam, BATCH),
         "no accumulation, batch 512": plan(plain_step, adam, BATCH // K),
         "MultiSteps, 512 per call": plan(plain_step, multi, BATCH // K)}
MiB, param_bytes = 2**20, sum(p.nbytes for p in jax.tree.leaves(params))
print(f"parameters {param_bytes / MiB:.2f} MiB; Adam's state twice that")
for name, m in plans.items():  # the sum: what the call holds if nothing is freed early
    total = m.argument_size_in_bytes + m.output_size_in_bytes + m.temp_size_in_bytes - m.alias_size_in_bytes
    print(f"{name:30s} arguments {m.argument_size_in_bytes / MiB:6.2f} MiB, outputs {m.output_size_in_bytes / MiB:6.2f}, "
          f"temporaries {m.temp_size_in_bytes / MiB:6.2f}, sum {total / MiB:6.2f}")

full, scan, micro, ms = plans.values()
extra = ms.argument_size_in_bytes - micro.argument_size_in_bytes
print(f"MultiSteps' state holds {extra / param_bytes:.3f} x the parameters more than Adam's")
assert param_bytes <= extra < 1.01 * param_bytes  # the accumulator, and two scalar counters
assert param_bytes <= ms.output_size_in_bytes - micro.output_size_in_bytes < 1.01 * param_bytes
if jax.default_backend() == "cpu":  # XLA:CPU's plan; each backend plans its own temporaries
    sums = {name: m.argument_size_in_bytes + m.output_size_in_bytes + m.temp_size_in_bytes - m.alias_size_in_bytes
            for name, m in plans.items()}
    s_full, s_scan, s_micro, s_ms = sums.values()
    assert s_scan < s_ms < s_full  # both ways accumulate in less than the whole batch; scan in the least
    assert ms.temp_size_in_bytes > micro.temp_size_in_bytes  # MultiSteps runs Adam's update on every call

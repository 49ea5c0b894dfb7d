"""Temporary memory and flops of a gradient, per checkpoint policy, for a Python loop and a scan."""
import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
from jax.ad_checkpoint import checkpoint_name

cp = jax.checkpoint_policies
L, B, T, D = 6, 4, 256, 64
kq, ko, kx = jax.random.split(jax.random.key(0), 3)
params = {"q": jax.random.normal(kq, (L, D, D)) / D**0.5,  # the 6 blocks' weights, stacked
          "o": jax.random.normal(ko, (L, D, D)) / D**0.5}
x = jax.random.normal(kx, (B, T, D))


def block(w, h):  # the attention-style residual block of the previous example
    q = checkpoint_name(h @ w["q"], "q")
    s = jnp.einsum("btd,bsd->bts", q, h)
    a = jnp.einsum("bts,bsd->btd", jax.nn.softmax(s / D**0.5), h)
    return h + jnp.tanh(a @ w["o"])


def make_loss(policy, use_scan):
    blk = block if policy == "none" else jax.checkpoint(block, policy=policy)
    def loss(params, x):
        if use_scan:  # one block body, run L times over the stacked weights
            h, _ = jax.lax.scan(lambda h, w: (blk(w, h), None), x, params)
        else:  # a Python loop: L copies of the block in the program
            h = x
            for i in range(L):
                h = blk(jax.tree.map(lambda p: p[i], params), h)
        return jnp.mean(h**2)
    return loss


policies = {"no checkpoint": "none", "checkpoint_dots": cp.checkpoint_dots,
            "dots_with_no_batch_dims_saveable": cp.dots_with_no_batch_dims_saveable,
            "save_only_these_names('q')": cp.save_only_these_names("q"),
            "nothing_saveable": cp.nothing_saveable}
mem, flops, grads = {}, {}, {}
for use_scan in (False, True):
    for name, policy in policies.items():
        c = jax.jit(jax.grad(make_loss(policy, use_scan))).lower(params, x).compile()
        mem[use_scan, name] = c.memory_analysis().temp_size_in_bytes / 2**20
        flops[use_scan, name] = c.cost_analysis()["flops"] / 1e9
        grads[use_scan, name] = c(params, x)
        print(f"{'scan' if use_scan else 'loop'}  {name:33}"
              f" temporaries {mem[use_scan, name]:6.2f} MiB  flops {flops[use_scan, name]:.3f} G")

# What the forward scan keeps for the backward one: its outputs with a leading axis of length L,
# one slice per block (read from the jaxpr, so the same on every backend).
stacked = {}
for name, policy in policies.items():
    jaxpr = jax.make_jaxpr(jax.grad(make_loss(policy, True)))(params, x)
    forward = next(e for e in jaxpr.eqns if e.primitive.name == "scan")
    stacked[name] = sum(v.aval.size * v.aval.dtype.itemsize for v in forward.outvars if v.aval.shape[:1] == (L,)) / 2**20
print("scan residuals stacked over the 6 blocks (MiB):", {name: round(v, 2) for name, v in stacked.items()})
sizes = list(stacked.values())
assert all(a > b for a, b in zip(sizes, sizes[1:])) and stacked["nothing_saveable"] == L * x.nbytes / 2**20

ref = jax.tree.leaves(grads[False, "no checkpoint"])
for g in grads.values():  # every policy, loop or scan: the same gradient
    assert all(jnp.allclose(a, b, atol=1e-4) for a, b in zip(ref, jax.tree.leaves(g)))
on_cpu = jax.default_backend() == "cpu"  # the buffer plan and the cost model are the backend's
for use_scan in (False, True):  # saving less means less memory and more recomputation
    m, f = [mem[use_scan, n] for n in policies], [flops[use_scan, n] for n in policies]
    assert f[-1] > f[0]  # nothing_saveable recomputes more than no checkpoint, on any backend
    if on_cpu:  # the CPU's buffer plan (a TPU v5e reported no temporaries here), policy by policy
        assert all(a > b for a, b in zip(m, m[1:])) and all(a < b for a, b in zip(f, f[1:]))
        assert f[1] < 1.05 * f[0]  # checkpoint_dots recomputes only cheap elementwise operations
if on_cpu:  # the CPU's cost_analysis counts a loop body once, not once per iteration
    assert flops[True, "no checkpoint"] < flops[False, "no checkpoint"] / 3
    # The loop stored less than these residuals; the scan needed more, and each policy saved more there.
    assert mem[False, "no checkpoint"] < stacked["no checkpoint"] < mem[True, "no checkpoint"]
    saved = {s: [mem[s, "no checkpoint"] - mem[s, n] for n in list(policies)[1:]] for s in (False, True)}
    assert all(in_scan > in_loop for in_loop, in_scan in zip(saved[False], saved[True]))

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
ys = range(len(policies))
for use_scan, dy, label in [(False, -0.2, "Python loop"), (True, 0.2, "lax.scan")]:
    ax1.barh([y + dy for y in ys], [mem[use_scan, n] for n in policies], 0.4, label=label)
    base = flops[use_scan, "no checkpoint"]
    ax2.barh([y + dy for y in ys], [flops[use_scan, n] / base for n in policies], 0.4, label=label)
ax1.set_yticks(list(ys), list(policies))
ax1.invert_yaxis()
ax1.set_xlabel("temporary memory (MiB)")
ax2.set_xlabel("flops relative to no checkpoint")
ax2.set_xlim(left=0.9)
ax1.legend()
fig.suptitle("Gradient of a residual network, per checkpoint policy")
fig.tight_layout()
plt.show()

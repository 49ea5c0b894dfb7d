"""Warmup + cosine, piecewise constant, and a warmup joined to an exponential decay, plotted and checked."""
import jax.numpy as jnp
import matplotlib.pyplot as plt
import numpy as np
import optax

warmup_cosine = optax.warmup_cosine_decay_schedule(
    init_value=0.0, peak_value=0.1, warmup_steps=10, decay_steps=100, end_value=0.001)
# Multiply by 0.5 from step 40 on, and by a further 0.2 from step 70 on.
piecewise = optax.piecewise_constant_schedule(init_value=0.1, boundaries_and_scales={40: 0.5, 70: 0.2})
decay = optax.exponential_decay(init_value=0.1, transition_steps=10, decay_rate=0.7)
warmup_exp = optax.join_schedules(
    [optax.linear_schedule(init_value=0.0, end_value=0.1, transition_steps=10), decay], boundaries=[10])

steps = jnp.arange(121)  # a schedule also takes an array of steps
curves = {"warmup + cosine": warmup_cosine(steps), "piecewise constant": piecewise(steps),
          "warmup + exponential": warmup_exp(steps)}
for name, lr in curves.items():
    print(f"{name:21s} " + "  ".join(f"{s}: {float(lr[s]):.4f}" for s in (0, 5, 10, 40, 70, 100, 120)))

c, p, e = (np.asarray(v) for v in curves.values())
assert c[0] == 0.0 and np.isclose(c[10], 0.1) and c.argmax() == 10  # peak at the end of warmup
assert np.isclose(c[55], (0.1 + 0.001) / 2)  # halfway through the cosine part: the midpoint
assert np.isclose(c[100], 0.001) and np.isclose(c[120], 0.001)  # end value, then flat
assert np.isclose(p[39], 0.1) and np.isclose(p[40], 0.05)  # a boundary step already uses the new value
assert np.isclose(p[69], 0.05) and np.isclose(p[70], 0.01)  # scales multiply: 0.1 * 0.5 * 0.2
# join_schedules restarts the count: step 10 + j of the joined schedule is step j of the decay.
assert np.allclose(e[10:], decay(jnp.arange(111)))
assert np.isclose(e[20], 0.07)

plt.figure(figsize=(5, 3.2))
for name, lr in curves.items():
    plt.plot(steps, lr, drawstyle="steps-post", label=name)
plt.xlabel("step")
plt.ylabel("learning rate")
plt.title("Learning-rate schedules")
plt.legend()
plt.tight_layout()
plt.show()

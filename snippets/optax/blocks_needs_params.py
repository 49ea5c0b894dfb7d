"""Weight decay reads the parameters, so adamw's update needs params; adam's does not."""
import jax.numpy as jnp
import numpy as np
import optax

params = {"w": jnp.array([1.0, -2.0, 3.0])}
grads = {"w": jnp.array([0.5, 0.5, -0.5])}
lr, wd = 0.1, 0.01

adam, adamw = optax.adam(lr), optax.adamw(lr, weight_decay=wd)
adam_updates, _ = adam.update(grads, adam.init(params))  # fine without params

try:
    adamw.update(grads, adamw.init(params))  # params left out
except ValueError as e:
    print("adamw:", type(e).__name__, "-", e)
    assert "requires the current value of parameters" in str(e)
else:
    raise AssertionError("adamw.update without params did not raise")

adamw_updates, _ = adamw.update(grads, adamw.init(params), params)
extra = adamw_updates["w"] - adam_updates["w"]
print("adam  updates:", np.asarray(adam_updates["w"]).round(4))
print("adamw updates:", np.asarray(adamw_updates["w"]).round(4))
print("difference:   ", np.asarray(extra).round(4), "= -lr * wd * params")
# AdamW = Adam's direction plus wd * params, all scaled by -lr.
assert jnp.allclose(extra, -lr * wd * params["w"], atol=1e-7)

# On its own, add_decayed_weights is grads + wd * params ...
decay = optax.add_decayed_weights(wd)
decayed, _ = decay.update(grads, decay.init(params), params)
assert jnp.allclose(decayed["w"], grads["w"] + wd * params["w"])
# ... and without params it fails earlier, with Python's own TypeError.
try:
    decay.update(grads, decay.init(params))
except TypeError as e:
    print("add_decayed_weights:", type(e).__name__, "-", e)
    assert "params" in str(e)
else:
    raise AssertionError("add_decayed_weights.update without params did not raise")

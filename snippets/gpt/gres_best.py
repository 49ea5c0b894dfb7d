"""Keep the best checkpoints by validation loss, and the latest one to resume from."""
import shutil
import tempfile

import absl.logging
import jax.numpy as jnp
import orbax.checkpoint as ocp

absl.logging.set_verbosity(absl.logging.ERROR)  # keep Orbax's log lines off stderr

policies = ocp.checkpoint_managers
val_loss = {100: 0.9, 200: 0.5, 300: 0.7, 400: 0.4, 500: 0.6}  # stand-ins for measured losses


def keep(**options):
    """Save at every step of val_loss; return the kept steps, the best and the latest."""
    root = tempfile.mkdtemp()
    with ocp.CheckpointManager(root, options=ocp.CheckpointManagerOptions(**options)) as manager:
        for step, loss in val_loss.items():
            state = {"w": jnp.full(3, float(step))}  # stands in for model and optimizer state
            manager.save(step, args=ocp.args.StandardSave(state), metrics={"val_loss": loss})
        manager.wait_until_finished()
        result = manager.all_steps(), manager.best_step(), manager.latest_step()
    shutil.rmtree(root)
    return result


by_loss = dict(best_fn=lambda metrics: metrics["val_loss"], best_mode="min")  # for best_step()
best_2 = policies.BestN(get_metric_fn=lambda metrics: metrics["val_loss"], reverse=True, n=2)
kept, best, latest = keep(preservation_policy=best_2, **by_loss)
print("BestN(n=2): kept", kept, "| best", best, "| latest", latest)
assert kept == [200, 400] and best == 400 and latest == 400  # step 500 is gone

older = keep(max_to_keep=2, **by_loss)  # the older options build the same BestN policy
print("max_to_keep=2: kept", older[0])
assert older == (kept, best, latest)

both = policies.AnyPreservationPolicy([best_2, policies.LatestN(n=1)])
kept, best, latest = keep(preservation_policy=both, **by_loss)
print("BestN(2) or LatestN(1): kept", kept, "| best", best, "| latest", latest)
assert kept == [200, 400, 500] and best == 400 and latest == 500  # resume from 500

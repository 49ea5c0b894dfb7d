"""Flax NNX: the same CNN as nnx.Sequential, and the paths and shapes in nnx.state."""
from flax import nnx

rngs = nnx.Rngs(0)
model = nnx.Sequential(
    nnx.Conv(3, 8, kernel_size=(3, 3), padding=((1, 1), (1, 1)), rngs=rngs),  # input (N, 8, 8, 3)
    nnx.BatchNorm(8, momentum=0.9, rngs=rngs),  # momentum=0.9 matches torch's 0.1
    nnx.relu,  # plain functions are layers too
    lambda x: nnx.max_pool(x, (2, 2), strides=(2, 2)),  # (N, 4, 4, 8)
    lambda x: x.transpose(0, 3, 1, 2).reshape(x.shape[0], -1),  # flatten in torch's (C, H, W) order
    nnx.Linear(8 * 4 * 4, 10, rngs=rngs),
)
for path, var in nnx.to_flat_state(nnx.state(model)):
    name = "/".join(map(str, path))
    print(f"{name:18s} {str(var.shape):14s} {type(var).__name__}")

params = nnx.state(model, nnx.Param)  # like named_parameters()
stats = nnx.state(model, nnx.BatchStat)  # like the BatchNorm buffers
print(f"{len(nnx.to_flat_state(params))} Params, {len(nnx.to_flat_state(stats))} BatchStats")
assert len(nnx.to_flat_state(params)) == 6 and len(nnx.to_flat_state(stats)) == 2
assert model.layers[0].kernel.shape == (3, 3, 3, 8)  # (kh, kw, in, out)
assert model.layers[5].kernel.shape == (128, 10)  # (in, out)
assert model.layers[1].use_running_average is False  # a new BatchNorm starts in training mode

# Mode switching: eval() flips use_running_average (and Dropout's deterministic) in place...
model.eval()
assert model.layers[1].use_running_average is True
model.train()
# ...while nnx.view returns a second model in eval mode that shares the same variables.
eval_view = nnx.view(model, use_running_average=True)
print("view in eval mode:", eval_view.layers[1].use_running_average,
      "| model still in train mode:", not model.layers[1].use_running_average)
assert eval_view.layers[1].use_running_average and not model.layers[1].use_running_average
assert eval_view.layers[0].kernel is model.layers[0].kernel

"""Every name in the rosetta tables resolves in the pinned versions, without a deprecation warning."""
import importlib
import importlib.util
import logging
import warnings

import flax
import jax
import optax
import torch

JAX = """jax.numpy.asarray jax.numpy.arange jax.numpy.float16 jax.numpy.promote_types
jax.numpy.concatenate jax.numpy.stack jax.numpy.transpose jax.numpy.expand_dims jax.numpy.einsum
jax.numpy.where jax.numpy.clip jax.numpy.argmax jax.numpy.size jax.numpy.mean jax.nn.softmax
jax.nn.one_hot jax.enable_x64 jax.config.update array.at array.reshape array.astype
array.item array.devices array.device array.sharding array.addressable_shards
jax.random.key jax.random.split jax.random.normal jax.random.uniform jax.random.randint
jax.random.bernoulli jax.random.categorical jax.random.permutation jax.random.fold_in
jax.random.key_data jax.random.wrap_key_data jax.grad jax.value_and_grad jax.lax.stop_gradient
jax.jacfwd jax.jacrev jax.hessian jax.vmap jax.checkpoint jax.remat jax.debug_nans jax.jit
jax.log_compiles jax.lax.map jax.lax.psum jax.lax.pmean jax.lax.pmax jax.lax.cond jax.lax.switch
jax.lax.scan jax.lax.while_loop jax.lax.fori_loop jax.tree.leaves jax.tree.map jax.tree.reduce
jax.tree_util.tree_flatten_with_path jax.tree_util.keystr jax.tree_util.register_dataclass
jax.tree_util.register_pytree_node jax.debug.print jax.device_count jax.local_device_count
jax.devices jax.device_put jax.make_mesh jax.P jax.sharding.NamedSharding jax.sharding.reshard
jax.typeof jax.shard_map jax.lax.all_gather jax.lax.psum_scatter jax.lax.all_to_all
jax.lax.ppermute jax.lax.axis_index jax.distributed.initialize jax.distributed.shutdown
jax.process_index jax.process_count jax.make_array_from_process_local_data
optax.adam optax.adamw optax.apply_updates optax.cosine_decay_schedule optax.chain
optax.clip_by_global_norm optax.MultiSteps optax.partition optax.set_to_zero
optax.selective_transform flax.nnx.Module flax.nnx.Linear flax.nnx.Rngs flax.nnx.Optimizer
flax.nnx.Param flax.nnx.grad flax.nnx.DiffState flax.nnx.state flax.nnx.to_pure_dict
flax.nnx.replace_by_pure_dict flax.nnx.update flax.serialization.to_bytes
flax.serialization.from_bytes flax.nnx.Conv flax.nnx.BatchNorm flax.nnx.Dropout flax.nnx.Module.train
flax.nnx.Module.eval grain.DataLoader orbax.checkpoint.StandardCheckpointer
jax.custom_vjp jax.custom_jvp jax.vjp jax.jvp jax.linearize jax.pure_callback jax.ShapeDtypeStruct
jax.eval_shape jax.debug.breakpoint jax.export.export jax.export.symbolic_shape
jax.export.deserialize jax.experimental.pallas.pallas_call jax.experimental.pallas.BlockSpec
jax.ffi.register_ffi_target jax.ffi.pycapsule jax.ffi.ffi_call
flax.nnx.List flax.nnx.Dict flax.nnx.LayerNorm flax.nnx.gelu flax.nnx.remat flax.nnx.scan
orbax.checkpoint.CheckpointManager orbax.checkpoint.args.Composite""".split()

TORCH = """torch.tensor torch.arange torch.promote_types torch.cat torch.stack torch.Tensor.view
torch.Tensor.permute torch.Tensor.unsqueeze torch.einsum torch.where torch.clamp torch.argmax
torch.nn.functional.softmax torch.nn.functional.one_hot torch.nn.functional.mse_loss
torch.Tensor.index_add_ torch.manual_seed torch.Generator.get_state torch.Generator.set_state
torch.randn torch.rand torch.randint torch.bernoulli torch.multinomial torch.randperm
torch.func.vmap torch.vmap torch.func.grad torch.func.grad_and_value torch.func.jacfwd
torch.func.jacrev torch.func.hessian torch.utils.checkpoint.checkpoint
torch.autograd.detect_anomaly torch.compile torch._dynamo.explain torch.cond torch.nn.RNN
torch.nn.Linear torch.optim.Adam torch.optim.AdamW torch.optim.lr_scheduler.CosineAnnealingLR
torch.nn.utils.clip_grad_norm_ torch.set_float32_matmul_precision torch.cuda.device_count
torch.distributed.device_mesh.init_device_mesh torch.distributed.tensor.distribute_tensor
torch.distributed.tensor.Shard torch.distributed.tensor.Replicate torch.distributed.init_process_group
torch.distributed.get_rank torch.distributed.get_world_size torch.distributed.all_reduce
torch.distributed.all_gather_single torch.distributed.reduce_scatter_single
torch.distributed.all_to_all_single torch.distributed.batch_isend_irecv
torch.distributed.destroy_process_group torch.distributed.fsdp.fully_shard
torch.distributed.tensor.parallel.parallelize_module torch.nn.Conv2d torch.nn.BatchNorm2d
torch.nn.Dropout torch.nn.Module.train torch.nn.Module.eval torch.utils.data.DataLoader torch.save torch.load torch.get_rng_state
torch.set_rng_state
torch.autograd.Function torch.autograd.grad torch.func.jvp torch.func.linearize torch.library.custom_op
torch.library.register_fake torch.library.register_autograd torch.export.export torch.export.Dim
torch.export.save torch.export.load torch.utils.cpp_extension.load_inline
torch.nn.ModuleList torch.nn.ModuleDict torch.nn.LayerNorm torch.nn.GELU torch.nn.SyncBatchNorm""".split()

# Triton ships with PyTorch's Linux CUDA wheels, not with its CPU or macOS builds: looked up where installed.
if importlib.util.find_spec("triton") is not None:
    TORCH.append("triton.jit")

# Importing torch.utils.cpp_extension logs a warning when no CUDA runtime is found; the name still resolves.
logging.getLogger("torch.utils.cpp_extension").setLevel(logging.ERROR)


def resolve(name):
    parts = name.split(".")
    if parts[0] == "array":  # methods and properties of a concrete jax.Array
        return getattr(jax.numpy.zeros(2), parts[1])
    for i in range(len(parts), 0, -1):  # the longest importable module prefix, then attributes
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(name)


with warnings.catch_warnings():
    warnings.simplefilter("error")  # a deprecated name fails here
    missing = []
    for name in JAX + TORCH:
        try:
            resolve(name)
        except (ImportError, AttributeError, DeprecationWarning, FutureWarning) as err:
            missing.append(f"{name}: {err!r}")

print(f"jax {jax.__version__}, flax {flax.__version__}, optax {optax.__version__}, torch {torch.__version__}")
print(f"looked up {len(JAX)} JAX, Flax and optax names (with Grain and Orbax) and {len(TORCH)} PyTorch names; missing: {missing}")
assert not missing

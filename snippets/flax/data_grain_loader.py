"""Grain's DataLoader API: a sampler, a list of operations, and worker processes (none here)."""
import multiprocessing

import grain
import grain.python as pygrain  # the import path of older code
import numpy as np

x = np.arange(20, dtype=np.float32).reshape(10, 2)
y = np.arange(10)  # each label is its example's index
records = list(zip(x, y))  # the data source: anything with __len__ and __getitem__


def make_loader(seed, num_epochs=1, drop_remainder=False):
    return grain.DataLoader(
        data_source=records,
        sampler=grain.samplers.IndexSampler(
            len(records), shuffle=True, seed=seed, num_epochs=num_epochs),
        operations=[grain.transforms.Batch(batch_size=4, drop_remainder=drop_remainder)],
        shard_options=grain.sharding.NoSharding(),  # one process reads all the data
        worker_count=0,  # 0: everything runs in this process; N: N child processes
    )


order = [yb.tolist() for _, yb in make_loader(seed=0)]
print("seed 0, 1 epoch:", order)
print("child processes:", multiprocessing.active_children())
assert sorted(sum(order, [])) == list(range(10))  # every example once
assert order == [yb.tolist() for _, yb in make_loader(seed=0)]  # same seed, same order
assert order != [yb.tolist() for _, yb in make_loader(seed=1)]
assert multiprocessing.active_children() == []
# In this version the sampler shuffles like MapDataset.shuffle: same seed, same batches.
assert order == [yb.tolist() for _, yb in grain.MapDataset.source(records).shuffle(seed=0).batch(4)]

# The sampler repeats examples, the Batch operation groups whatever comes next:
# with 2 epochs of 10 examples, one batch of 4 holds examples from both epochs,
# and drop_remainder, which sees one long stream, finds nothing to drop.
two = [yb.tolist() for _, yb in make_loader(seed=0, num_epochs=2, drop_remainder=True)]
print("seed 0, 2 epochs, drop_remainder=True:", two)
assert [len(b) for b in two] == [4, 4, 4, 4, 4]
assert sorted(two[2][:2] + sum(two[:2], [])) == list(range(10))  # epoch 0 ends mid-batch

# Older code imports grain.python: in this version it re-exports the same objects.
same = pygrain.DataLoader is grain.DataLoader and pygrain.IndexSampler is grain.samplers.IndexSampler
print("grain.python names are the grain names:", same)
assert same

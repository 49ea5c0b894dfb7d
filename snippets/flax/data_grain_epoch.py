"""Grain: a shuffled, batched pipeline from a seed; each epoch visits every example once."""
import grain
import numpy as np


class Examples:
    """Like a map-style torch Dataset: __len__ and __getitem__ are all Grain needs."""

    def __init__(self, n):
        self.x = np.arange(2 * n, dtype=np.float32).reshape(n, 2)
        self.y = np.arange(n)  # each label is its example's index

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def labels(ds):
    return [yb.tolist() for _, yb in ds]


source = grain.MapDataset.source(Examples(10))
print("seed 0:", labels(source.shuffle(seed=0).batch(4)))
print("seed 1:", labels(source.shuffle(seed=1).batch(4)))
xb, yb = source.shuffle(seed=0).batch(4)[0]  # random access: batch 0, computed on demand
print("batch 0:", type(xb).__name__, xb.shape, xb.dtype, "|", type(yb).__name__, yb.shape)
assert xb.shape == (4, 2) and np.array_equal(xb, Examples(10).x[yb])  # tuples stacked
assert sorted(sum(labels(source.shuffle(seed=0).batch(4)), [])) == list(range(10))
assert labels(source.shuffle(seed=0).batch(4)) == labels(source.shuffle(seed=0).batch(4))
assert labels(source.shuffle(seed=1).batch(4)) != labels(source.shuffle(seed=0).batch(4))

# Several epochs: batch, then repeat, so that no batch mixes two epochs.
two = labels(source.shuffle(seed=0).batch(4, drop_remainder=True).repeat(2))
print("seed 0, 2 epochs:", two)
assert two[:2] == labels(source.shuffle(seed=0).batch(4))[:2] and two[2:] != two[:2]
# repeat, then batch: 20 examples in 5 batches, so one batch spans both epochs.
assert len(labels(source.shuffle(seed=0).repeat(2).batch(4))) == 5

# Epoch e of shuffle(seed=s) is shuffled with seed s + e: consecutive seeds share epochs.
assert two[2:] == labels(source.shuffle(seed=1).batch(4))[:2]
# ds.seed(s) derives the shuffle seed from s instead, and seeds 0 and 1 no longer overlap.
by_seed = [labels(source.seed(s).shuffle().batch(4, drop_remainder=True).repeat(2))
           for s in (0, 1)]
print("seed(0) then shuffle():", by_seed[0])
assert by_seed[0][2:] != by_seed[1][:2]

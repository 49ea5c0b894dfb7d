"""A seeded NumPy batch iterator: a few lines replace DataLoader(shuffle=True, drop_last=...)."""
import numpy as np


def batches(x, y, batch_size, *, seed, epoch, drop_last=False):
    """Yield shuffled (x, y) batches for one epoch; the order depends only on (seed, epoch)."""
    order = np.random.default_rng((seed, epoch)).permutation(len(x))
    stop = len(x) - len(x) % batch_size if drop_last else len(x)
    for start in range(0, stop, batch_size):
        idx = order[start:start + batch_size]
        yield x[idx], y[idx]


x = np.arange(20, dtype=np.float32).reshape(10, 2)  # 10 examples with 2 features
y = np.arange(10)  # each label is its example's index, so the order is visible


def labels(**kw):
    return [yb.tolist() for _, yb in batches(x, y, 4, **kw)]


for epoch in range(2):
    print(f"seed 0, epoch {epoch}:", labels(seed=0, epoch=epoch))
print("seed 1, epoch 0:", labels(seed=1, epoch=0))
print("drop_last=True: ", labels(seed=0, epoch=0, drop_last=True))

# Every example exactly once per epoch, with its own features; the last batch is short.
for xb, yb in batches(x, y, 4, seed=0, epoch=0):
    assert np.array_equal(xb, x[yb])
assert sorted(sum(labels(seed=0, epoch=0), [])) == list(range(10))
assert [len(b) for b in labels(seed=0, epoch=0)] == [4, 4, 2]
# Same seed and epoch: same order. Another seed or another epoch: another order.
assert labels(seed=0, epoch=0) == labels(seed=0, epoch=0)
assert labels(seed=1, epoch=0) != labels(seed=0, epoch=0)
assert labels(seed=0, epoch=1) != labels(seed=0, epoch=0)
assert labels(seed=0, epoch=1) != labels(seed=1, epoch=0)  # (seed, epoch) pairs do not collide
# drop_last: only full batches; the 2 examples left over change from epoch to epoch.
kept = sum(labels(seed=0, epoch=0, drop_last=True), [])
assert len(kept) == 8 and len(set(kept)) == 8
assert kept == sum(labels(seed=0, epoch=0), [])[:8]  # same shuffle, tail dropped
assert set(kept) != set(sum(labels(seed=0, epoch=1, drop_last=True), []))

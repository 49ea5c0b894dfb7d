"""Device memory profiles before and after a step, read without pprof: total bytes, with and without donation."""
import gzip

import jax
import jax.numpy as jnp


def varint(buf, i):  # protocol-buffer integer: 7 bits per byte, high bit = "more"
    value = shift = 0
    while True:
        byte = buf[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def fields(buf):  # (field number, wire type, value) of one protocol-buffer message
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        if key & 7 == 0:
            value, i = varint(buf, i)
        elif key & 7 == 2:
            n, i = varint(buf, i)
            value, i = buf[i:i + n], i + n
        else:
            raise ValueError("wire type not used by this profile")
        yield key >> 3, key & 7, value


def profile_bytes():
    """Sum the 'space' values of the pprof Profile that device_memory_profile() returns (gzipped)."""
    profile = gzip.decompress(jax.profiler.device_memory_profile())
    strings, types, samples = [], [], []
    for number, _, value in fields(profile):
        if number == 6:  # string_table
            strings.append(value.decode())
        elif number == 1:  # sample_type: a ValueType(type, unit) per column
            types.append(dict((n, v) for n, _, v in fields(value)))
        elif number == 2:  # sample: the value field (2) is a packed list, one entry per column
            packed = next(v for n, w, v in fields(value) if n == 2)
            row, i = [], 0
            while i < len(packed):
                v, i = varint(packed, i)
                row.append(v)
            samples.append(row)
    column = [strings[t[1]] for t in types].index("space")
    assert strings[types[column][2]] == "bytes"
    return sum(row[column] for row in samples)


def step(w, x):
    return w - 0.1 * jnp.tanh(x @ w)  # a new w of the same shape


w = jax.random.normal(jax.random.key(0), (1024, 1024))  # 4 MiB
x = jax.random.normal(jax.random.key(1), (1024, 1024))
before = profile_bytes()
live = sum(a.nbytes for a in jax.live_arrays())
print(f"before the step: profile {before / 2**20:.1f} MiB, live arrays {live / 2**20:.1f} MiB")

new_w = jax.jit(step)(w, x)  # w is still referenced: old and new parameters are both alive
after_plain = profile_bytes()
print(f"after a plain step: {after_plain / 2**20:.1f} MiB (+{(after_plain - before) / 2**20:.1f})")

del new_w
newer_w = jax.jit(step, donate_argnums=0)(w, x)  # the new w reuses the buffer of the old one
after_donated = profile_bytes()
print(f"after a donated step: {after_donated / 2**20:.1f} MiB (+{(after_donated - before) / 2**20:.1f}),"
      f" old w deleted: {w.is_deleted()}")
stats = jax.devices()[0].memory_stats()  # the allocator's statistics: a dict on a GPU or a TPU, None on the CPU
if stats is None:
    print(f"memory_stats() on {jax.default_backend()}: None")
else:
    print(f"memory_stats() on {jax.default_backend()}:",
          ", ".join(f"{k} {stats[k]}" for k in ("bytes_limit", "bytes_in_use", "peak_bytes_in_use") if k in stats))

assert after_plain - before >= w.nbytes  # one extra copy of the parameters
assert w.is_deleted()
assert after_donated - before < w.nbytes  # donation: the new w took the old one's buffer, no extra copy
if jax.default_backend() == "cpu":  # a TPU's profile also counts buffers of its runtime
    assert after_plain - before == w.nbytes and after_donated == before  # exactly
    assert before == live  # on this CPU the profile counts exactly the live arrays' bytes
    assert stats is None  # the CPU client keeps no allocator statistics
elif {"bytes_in_use", "peak_bytes_in_use"} <= stats.keys():  # a GPU or a TPU: the allocator's live buffers
    assert stats["peak_bytes_in_use"] >= stats["bytes_in_use"] >= 2 * w.nbytes  # x and the new w at least

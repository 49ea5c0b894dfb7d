"""The errors vmap raises when the batch sizes or the axes do not match the arguments."""
import jax
import jax.numpy as jnp


def dot(a, b):
    return jnp.sum(a * b)


def value_error(fn, *args):  # call fn and return the ValueError it raises
    try:
        fn(*args)
    except ValueError as err:
        print(f"ValueError: {err}\n")
        return err
    return None


a = jnp.ones((4, 3))  # 4 examples
b = jnp.ones((5, 3))  # 5 examples: one too many

err = value_error(jax.vmap(dot), a, b)
assert err is not None and "inconsistent sizes for array axes to be mapped" in str(err)

# A tuple in_axes needs one entry per positional argument.
err = value_error(jax.vmap(dot, in_axes=(0,)), a, a)
assert err is not None and "len(in_axes)=1, len(args)=2" in str(err)

# out_axes=None promises an output that does not depend on the batch.
err = value_error(jax.vmap(dot, out_axes=None), a, a)
assert err is not None and "got axis spec None but output was batched" in str(err)

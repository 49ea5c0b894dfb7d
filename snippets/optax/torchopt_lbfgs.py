"""torch.optim.LBFGS and optax.lbfgs fit the same nnx.Linear regression to the least-squares optimum."""
import jax

jax.config.update("jax_enable_x64", True)  # float64 in both, so the optimum is resolved finely
import jax.numpy as jnp
import numpy as np
import optax
import torch
from flax import nnx

rng = np.random.default_rng(0)
x = rng.normal(size=(64, 3))
y = x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3 + 0.1 * rng.normal(size=(64, 1))
X1 = np.hstack([x, np.ones((64, 1))])  # the exact least-squares solution, for reference
best = float(np.mean((X1 @ np.linalg.lstsq(X1, y, rcond=None)[0] - y) ** 2))

# JAX: split the module into a graph and its parameters, and optimise a pure function of them.
# Zero weights to start: a TPU failed to compile the float64 random initializer (jax 0.10.2), and
# any start reaches the optimum of this least-squares fit.
model = nnx.Linear(3, 1, rngs=nnx.Rngs(0), param_dtype=jnp.float64, kernel_init=nnx.initializers.zeros_init())
graphdef, params = nnx.split(model, nnx.Param)
kernel0, bias0 = np.asarray(model.kernel[...]), np.asarray(model.bias[...])


def loss_fn(params):
    return jnp.mean((nnx.merge(graphdef, params)(x) - y) ** 2)


tx = optax.lbfgs()  # zoom line search by default
state = tx.init(params)
value_and_grad = optax.value_and_grad_from_state(loss_fn)  # reuses the line search's values


@jax.jit
def step(params, state):
    value, grad = value_and_grad(params, state=state)
    updates, state = tx.update(grad, state, params, value=value, grad=grad, value_fn=loss_fn)
    return optax.apply_updates(params, updates), state


for _ in range(10):
    params, state = step(params, state)
nnx.update(model, params)
loss_optax = float(loss_fn(params))

# PyTorch: the same weights; LBFGS calls the closure as often as it needs within one step().
xt, yt = torch.from_numpy(x), torch.from_numpy(y)
losses_torch = {}
for search in (None, "strong_wolfe"):  # torch's default is no line search
    lin = torch.nn.Linear(3, 1, dtype=torch.float64)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor(kernel0.T)), lin.bias.copy_(torch.tensor(bias0))
    opt = torch.optim.LBFGS(lin.parameters(), line_search_fn=search)

    def closure():
        opt.zero_grad()
        loss = torch.mean((lin(xt) - yt) ** 2)
        loss.backward()
        return loss

    for _ in range(10):
        opt.step(closure)
    losses_torch[search] = float(closure().detach())

rtol = 1e-6
print(f"least-squares loss            {best:.12f}")
for name, loss in {"optax.lbfgs (zoom)": loss_optax,
                   **{f"torch LBFGS ({s})": v for s, v in losses_torch.items()}}.items():
    print(f"{name:29s} {loss:.12f}, relative gap {abs(loss - best) / best:.1e}")
    assert abs(loss - best) < rtol * best, name
assert np.isclose(float(jnp.mean((model(x) - y) ** 2)), loss_optax, rtol=1e-12)  # model updated
print(f"all within rtol={rtol:.0e} of the least-squares loss")
assert loss_optax <= min(losses_torch.values())  # optax ends closest to the optimum here

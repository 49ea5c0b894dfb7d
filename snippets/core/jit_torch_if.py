"""PyTorch: torch.compile splits the graph at a data-dependent `if`; fullgraph=True refuses it."""
import torch

graphs = []


def counting_backend(graph_module, example_inputs):
    graphs.append(graph_module)
    return graph_module.forward


def relu_python(x):
    if x.sum() > 0:  # needs the value of a tensor computed inside the compiled region
        return x
    return torch.zeros_like(x)


relaxed = torch.compile(relu_python, backend=counting_backend)
print(relaxed(torch.tensor([2.0])), relaxed(torch.tensor([-2.0])))
print("graphs compiled:", len(graphs))  # the `if` ends one graph; Python picks the branch
assert torch.equal(relaxed(torch.tensor([-2.0])), torch.tensor([0.0]))
assert len(graphs) >= 2

torch.compiler.reset()  # compiled code is cached per Python function: start afresh
strict = torch.compile(relu_python, backend=counting_backend, fullgraph=True)  # like jax.jit
error = None
try:
    strict(torch.tensor([2.0]))
except RuntimeError as err:  # torch._dynamo.exc.Unsupported
    error = err
print(type(error).__name__ + ":", str(error).splitlines()[0])
assert "Data-dependent branching" in str(error)

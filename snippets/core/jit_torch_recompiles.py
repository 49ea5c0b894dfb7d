"""PyTorch: count torch.compile graph compilations as the input length changes."""
import torch

compiled_graphs = []  # one entry each time Dynamo hands a new graph to the backend


def counting_backend(graph_module, example_inputs):
    compiled_graphs.append(graph_module)
    return graph_module.forward  # run the captured graph as is: no compiler needed


def f(x):
    return torch.sin(x) * 2


lengths = (3, 3, 4, 5, 6)
for dynamic in (False, None):  # None is the default
    torch.compiler.reset()  # forget earlier compilations of f
    compiled_graphs.clear()
    compiled_f = torch.compile(f, backend=counting_backend, dynamic=dynamic)
    for n in lengths:
        assert torch.allclose(compiled_f(torch.ones(n)), f(torch.ones(n)))
    print(f"dynamic={dynamic!s:5} lengths {lengths}: {len(compiled_graphs)} compilations")
    # False: one graph per new length. None: after one recompile the length becomes symbolic.
    assert len(compiled_graphs) == (4 if dynamic is False else 2)

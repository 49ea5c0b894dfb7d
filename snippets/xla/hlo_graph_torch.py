"""PyTorch: torch.fx records Python calls without shapes; torch.compile's capture adds them."""
import torch

scale = torch.arange(2.0)  # captured from the enclosing scope, not passed in


def layer(w, b, x):
    return torch.tanh(x @ w + b) * scale


w, b, x = torch.ones(3, 2), torch.zeros(2), torch.ones(4, 3)

traced = torch.fx.symbolic_trace(layer)  # no example inputs: proxies carry no shape
print(traced.graph)
assert [n.op for n in traced.graph.nodes].count("get_attr") == 1  # `scale` became a constant
assert all("tensor_meta" not in n.meta for n in traced.graph.nodes)  # no shapes recorded

graphs = []


def capture(graph_module, example_inputs):  # a backend that only keeps the graph: no compiler
    graphs.append(graph_module)
    return graph_module.forward


torch.compile(layer, backend=capture)(w, b, x)  # Dynamo traces with the real inputs
readable = graphs[0].print_readable(print_output=False)
print("\n".join(line for line in readable.splitlines() if line.strip() and "# File" not in line))
shapes = {n.name: tuple(n.meta["example_value"].shape) for n in graphs[0].graph.nodes if n.op != "output"}
print("shapes:", shapes)
assert [n.op for n in graphs[0].graph.nodes].count("placeholder") == 4  # `scale` became an extra input
assert shapes["mul"] == (4, 2)  # like a jaxpr, the captured graph knows every shape

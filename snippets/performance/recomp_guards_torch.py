"""See why torch.compile recompiles: the "recompiles" log names the failed guard."""
import logging

import torch


class Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        if record.name.endswith("__recompiles"):
            self.messages.append(record.getMessage())


torch._logging.set_logs(recompiles=True)  # the same as TORCH_LOGS="recompiles"
records = Records()
dynamo_logger = logging.getLogger("torch._dynamo")
for handler in list(dynamo_logger.handlers):  # set_logs installed a stderr handler
    dynamo_logger.removeHandler(handler)
dynamo_logger.addHandler(records)


def scale(x):
    return torch.sin(x) * 2.0


counts = []
f = torch.compile(scale, backend="eager")  # guards and recompiles are Dynamo's, whatever the backend
for what, x in [("first call", torch.ones(3)), ("new shape", torch.ones(4)),
                ("third shape", torch.ones(5)), ("new dtype", torch.ones(5, dtype=torch.float64))]:
    before = len(records.messages)
    f(x)
    counts.append(len(records.messages) - before)
    print(f"== {what}: {counts[-1]} recompile(s)")
    for message in records.messages[before:]:
        print("\n".join(line for line in message.splitlines() if "Recompiling function" not in line))

shape, dtype = records.messages
assert "tensor 'x' size mismatch at index 0. expected 3, actual 4" in shape
assert "tensor 'x' dtype mismatch. expected Float, actual Double" in dtype
# The second shape made dimension 0 dynamic, so the third shape did not recompile.
assert counts == [0, 1, 0, 1]

import inspect

import torch

signature = inspect.signature(torch.autograd.backward)
print("retain_graph =", signature.parameters["retain_graph"].default)
print("create_graph =", signature.parameters["create_graph"].default)
source = inspect.getsource(torch.autograd.backward).splitlines()
at = next(i for i, line in enumerate(source) if "if retain_graph is None" in line)
print("\n".join(line.strip() for line in source[at:at + 2]))

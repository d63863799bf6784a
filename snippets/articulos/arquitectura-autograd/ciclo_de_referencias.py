import inspect

import torch

# The note is read from the installed docstring, not quoted.
doc = inspect.getdoc(torch.autograd.backward)
note = next(part for part in doc.split("\n\n") if "reference cycle" in part)
print(note)

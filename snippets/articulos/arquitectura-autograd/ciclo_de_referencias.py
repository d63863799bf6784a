import inspect

import torch

# La nota se lee de la docstring del torch instalado, no se copia.
doc = inspect.getdoc(torch.autograd.backward)
note = next(part for part in doc.split("\n\n") if "reference cycle" in part)
print(note)

import inspect

import torch

# Lo que dice de retain_graph la documentación del torch instalado.
documentacion = inspect.getdoc(torch.autograd.backward)
inicio = documentacion.index("retain_graph (bool")
print(" ".join(documentacion[inicio : documentacion.index("create_graph (bool")].split()))

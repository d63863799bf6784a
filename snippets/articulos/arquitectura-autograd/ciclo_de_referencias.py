import inspect

import torch

# La nota se lee de la documentación del torch instalado, no se copia.
documentacion = inspect.getdoc(torch.autograd.backward)
nota = next(parte for parte in documentacion.split("\n\n") if "reference cycle" in parte)
print(nota)

import numpy as np
import torch

arreglo = np.array([1.0, 2.0, 3.0])
compartido = torch.from_numpy(arreglo)  # la misma memoria que el arreglo
copiado = torch.tensor(arreglo)  # memoria propia
arreglo[0] = 100.0
print("from_numpy:", compartido)  # Expectativa: [100, 2, 3]
print("torch.tensor:", copiado)  # Expectativa: [1, 2, 3]
print("tipo:", compartido.dtype)  # Expectativa: torch.float64

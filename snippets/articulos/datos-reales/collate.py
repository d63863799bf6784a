import numpy as np
from torch.utils.data import default_collate

# Recibe la lista de ejemplos de un lote y los junta según su tipo.
a, b = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
print("int:    ", default_collate([3, 5]))
print("float:  ", default_collate([0.5, 1.5]))
print("tensor: ", default_collate([a, b]))
print("numpy:  ", default_collate([np.array([0.5, 1.5]), np.array([2.5, 3.5])]))
pares = default_collate([(a, 7), (b, 9)])  # dos ejemplos, cada uno una tupla
print("tuplas: ", type(pares).__name__, pares)
print("listas: ", default_collate([[0.5, 1.5], [2.5, 3.5]]))

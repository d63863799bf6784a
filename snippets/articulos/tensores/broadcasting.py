import torch

columna = torch.tensor([0.0, 10.0, 20.0]).unsqueeze(1)  # de (3,) a (3, 1)
fila = torch.tensor([1.0, 2.0, 3.0, 4.0])  # (4,): se lee como (1, 4)
suma = columna + fila
print(suma)
print("formas:", tuple(columna.shape), "y", tuple(fila.shape), "→", tuple(suma.shape))
print("la regla:", torch.broadcast_shapes((3, 1), (4,)))  # Expectativa: [3, 4]

datos = torch.tensor([[1.0, 2.0], [3.0, 6.0]])
centrados = datos - datos.mean(dim=0)  # (2, 2) menos (2,): la media de cada columna
print("centrados:", centrados.tolist())  # Expectativa: [[-1, -2], [1, 2]]

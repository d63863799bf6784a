import torch

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])  # (2, 3)
print("suma de todo:", a.sum().item())  # Expectativa: 21
por_columnas = a.sum(dim=0)  # recorre las filas: queda un número por columna
por_filas = a.sum(dim=1)  # recorre cada fila: queda un número por fila
print("suma de cada columna:", por_columnas.tolist())  # Expectativa: [5, 7, 9]
print("suma de cada fila:", por_filas.tolist())  # Expectativa: [6, 15]
print("forma:", tuple(por_filas.shape))  # Expectativa: (2,)
print("con keepdim:", tuple(a.sum(dim=1, keepdim=True).shape))  # Expectativa: (2, 1)

maximos = a.max(dim=1)  # el valor y dónde está
print("máximo de cada fila:", maximos.values.tolist(), "en las columnas", maximos.indices.tolist())
print("media de cada columna:", a.mean(dim=0).tolist())

# keepdim deja la dimensión reducida con tamaño 1, lista para el broadcasting:
proporciones = a / a.sum(dim=1, keepdim=True)  # (2, 3) / (2, 1)
print("suma de cada fila tras dividir:", proporciones.sum(dim=1).tolist())  # Expectativa: [1, 1]

import torch

enteros = torch.tensor([[1, 2, 3], [4, 5, 6]])  # una lista de listas: dos filas
con_decimales = torch.tensor([0.5, 1.5, 2.5])  # números float de Python
print(enteros)
print("tipo de enteros:", enteros.dtype)  # Expectativa: torch.int64
print("tipo con decimales:", con_decimales.dtype)  # Expectativa: torch.float32
mezcla = torch.tensor([1, 2.0])  # basta un float, aunque su valor sea entero
print("tipo de la mezcla:", mezcla.dtype)  # Expectativa: torch.float32

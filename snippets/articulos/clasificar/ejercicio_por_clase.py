import torch

# Filas: clase verdadera; columnas: clase predicha.
confusion = torch.tensor([[50, 2, 0, 3], [4, 40, 1, 0], [0, 0, 45, 5], [1, 0, 9, 40]])
total = confusion.diagonal().sum() / confusion.sum()
por_clase = confusion.diagonal() / confusion.sum(dim=1)  # aciertos de cada fila / su total
print("exactitud total:", total.item())  # Expectativa: 0.875
print("exactitud de cada clase:", por_clase)
print("la peor clase:", por_clase.argmin().item())  # Expectativa: 3

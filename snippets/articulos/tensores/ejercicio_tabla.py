import torch

numeros = torch.arange(1, 10)  # 1, 2, …, 9
tabla = numeros.unsqueeze(1) * numeros  # (9, 1) por (9,): (9, 9), sin bucles
print("forma:", tuple(tabla.shape))  # Expectativa: (9, 9)
print("siete por ocho:", tabla[6, 7].item())  # Expectativa: 56
print("suma de la tabla:", tabla.sum().item())  # Expectativa: 2025

import torch

x = torch.arange(12).reshape(3, 4)
print(x)
print("fila 1:", x[1])
print("columna 2:", x[:, 2])
print("un elemento, como número de Python:", x[2, 3].item())  # Expectativa: 11
print("filas 0 y 2, columnas desde la 1:", x[[0, 2], 1:].tolist())
print("los pares:", x[x % 2 == 0])

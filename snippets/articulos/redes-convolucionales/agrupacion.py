import torch
from torch import nn

agrupar = nn.MaxPool2d(kernel_size=2)
print(agrupar)
print("parámetros:", list(agrupar.parameters()))  # Expectativa: []

x = torch.tensor(
    [
        [1.0, 3.0, 0.0, 2.0],
        [4.0, 2.0, 1.0, 1.0],
        [0.0, 1.0, 5.0, 0.0],
        [2.0, 0.0, 3.0, 4.0],
    ]
).reshape(1, 1, 4, 4)
print(agrupar(x))  # el máximo de cada bloque de 2 × 2
print(nn.AvgPool2d(kernel_size=2)(x))  # la media de cada bloque

# Cada canal se agrupa por separado: cambia el tamaño, no el número de canales.
print(tuple(agrupar(torch.zeros(64, 8, 8, 8)).shape))  # Expectativa: (64, 8, 4, 4)
# Con un tamaño impar, la última fila y la última columna se pierden (ceil_mode=False).
impar = torch.zeros(1, 1, 5, 5)
print(tuple(agrupar(impar).shape), tuple(nn.MaxPool2d(2, ceil_mode=True)(impar).shape))

import torch
from torch.utils.data import TensorDataset

generador = torch.Generator().manual_seed(0)  # un generador propio para fabricar los datos
x = torch.randn(10, 3, generator=generador)  # 10 ejemplos de 3 características
y = x.sum(dim=1, keepdim=True)  # un objetivo por ejemplo, de forma (10, 1)

datos = TensorDataset(x, y)  # la fila i de cada tensor es el ejemplo i
print("ejemplos:", len(datos))  # Expectativa: 10
entrada, objetivo = datos[3]  # un ejemplo es una tupla: una fila de cada tensor
print("ejemplo 3:", tuple(entrada.shape), "→", tuple(objetivo.shape))
print("es la fila 3 de x:", torch.equal(entrada, x[3]))  # Expectativa: True

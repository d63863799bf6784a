import torch
from torch import nn

capa = nn.Conv2d(3, 16, kernel_size=5)
print("a mano:", 16 * 3 * 5 * 5 + 16)  # Expectativa: 1216
print("numel:", sum(p.numel() for p in capa.parameters()))  # Expectativa: 1216

# Los mismos parámetros sirven para cualquier tamaño de imagen; la salida cambia.
for lado in [32, 224]:
    print(lado, "→", tuple(capa(torch.zeros(1, 3, lado, lado)).shape))

# Una capa lineal de la imagen de 3 × 32 × 32 a la salida de 16 × 28 × 28:
entradas, salidas = 3 * 32 * 32, 16 * 28 * 28
print("lineal equivalente:", entradas * salidas + salidas)  # Expectativa: 38547712

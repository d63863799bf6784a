import torch
from torch import nn

lenet = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5),  # 28 − 5 + 1 = 24
    nn.MaxPool2d(2),  # 24 // 2 = 12
    nn.Conv2d(6, 16, kernel_size=5),  # 12 − 5 + 1 = 8
    nn.MaxPool2d(2),  # 8 // 2 = 4
    nn.Flatten(),  # 16 × 4 × 4 = 256
)
x = torch.zeros(1, 1, 28, 28)
for capa in lenet:
    x = capa(x)
    print(f"{type(capa).__name__:>10}: {tuple(x.shape)}")
print("entradas de la capa lineal:", x.shape[1])  # Expectativa: 256

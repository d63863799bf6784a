import torch
from torch import nn

torch.manual_seed(0)
red = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
red[0].requires_grad_(False)  # la primera capa no se entrena
red(torch.randn(5, 4)).sum().backward()
for nombre, parametro in red.named_parameters():
    print(nombre, "con gradiente" if parametro.grad is not None else "sin gradiente")

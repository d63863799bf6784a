import torch
from torch import nn

normalizacion = nn.BatchNorm1d(3)
print("parámetros:", [nombre for nombre, _ in normalizacion.named_parameters()])
print("búferes:", [nombre for nombre, _ in normalizacion.named_buffers()])
normalizacion.to(torch.float64)  # cambia el tipo de parámetros y búferes a la vez
tipos = normalizacion.weight.dtype, normalizacion.running_mean.dtype
print("tipos:", *tipos)  # Expectativa: torch.float64 torch.float64

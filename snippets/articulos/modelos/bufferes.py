import torch
from torch import nn

normalizacion = nn.BatchNorm1d(3)
print("parámetros:", [nombre for nombre, _ in normalizacion.named_parameters()])
print("búferes:", [nombre for nombre, _ in normalizacion.named_buffers()])
normalizacion.to(torch.float64)  # cambia el tipo de los parámetros y búferes de coma flotante
tipos = normalizacion.weight.dtype, normalizacion.running_mean.dtype
print("tipos:", *tipos)  # Expectativa: torch.float64 torch.float64
print("contador:", normalizacion.num_batches_tracked.dtype)  # Expectativa: torch.int64

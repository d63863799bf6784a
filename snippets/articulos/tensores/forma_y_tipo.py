import torch

x = torch.arange(12.0).reshape(3, 4)
print("forma:", x.shape)
print("dimensiones:", x.ndim, "· elementos:", x.numel())
print("tipo:", x.dtype)
print("convertido:", x.to(torch.float64).dtype)
mezcla = torch.tensor([1, 2]) + torch.tensor([0.5, 0.5])  # entero + coma flotante
print("entero + coma flotante:", mezcla.dtype)

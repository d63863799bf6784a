import torch

pesos = torch.tensor([0.5, 1.5, 2.0])
print("suma de los pesos:", pesos.sum().item())
pesos * 2

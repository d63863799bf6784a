import torch

x = torch.linspace(0, 1, 5)
print(torch.exp(x).sum())

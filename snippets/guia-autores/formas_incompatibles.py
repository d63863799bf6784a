import torch

a = torch.ones(2)
b = torch.ones(3)
print(a + b)

import torch

modelo = torch.nn.Linear(2, 1)
print(sum(p.numel() for p in modelo.parameters()))  # Expectativa: 3

import torch

x = torch.tensor([1.0, 2.0, 3.0])
y = x.add(1)  # devuelve un tensor nuevo; x no cambia
print("y:", y, "· x:", x)
x.add_(1)  # el guion bajo final: modifica x y no crea otro tensor
print("x tras add_:", x)

import torch

x = torch.tensor(3.0, requires_grad=True)
(x**3).backward()
print(x.grad.item())  # Expectativa: 27

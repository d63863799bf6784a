import torch

x = torch.tensor(3.0, requires_grad=True)
(x * x).backward()
print(x.grad)  # Expectativa: 6

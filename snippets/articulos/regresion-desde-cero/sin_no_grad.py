import torch

x = torch.tensor([1.0, 2.0, 3.0])
y = torch.tensor([1.0, 3.0, 5.0])
w = torch.zeros((), requires_grad=True)
((w * x - y) ** 2).mean().backward()
w -= 0.1 * w.grad  # sin torch.no_grad(): autograd tendría que registrar el cambio de una hoja

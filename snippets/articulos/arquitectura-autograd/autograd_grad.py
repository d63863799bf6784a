import torch

x = torch.tensor(3.0, requires_grad=True)
(dx,) = torch.autograd.grad(x * x, x)  # devuelve el gradiente, no lo acumula
print("gradiente devuelto:", dx.item())  # Expectativa: 6
print("x.grad sigue vacío:", x.grad)

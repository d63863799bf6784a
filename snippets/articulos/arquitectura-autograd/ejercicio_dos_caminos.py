import torch

# z = x·w + x: dz/dx = w + 1 = 4 y dz/dw = x = 2 en x = 2, w = 3.
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
z = x * w + x
dx, dw = torch.autograd.grad(z, (x, w))
print("dz/dx =", dx.item())  # Expectativa: 4
print("dz/dw =", dw.item())  # Expectativa: 2

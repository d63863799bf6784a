import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x
y.retain_grad()  # pide guardar también el gradiente de este resultado intermedio
(2 * y).backward()
print("y.grad =", y.grad.item())  # Expectativa: 2
print("x.grad =", x.grad.item())  # Expectativa: 12

import torch

# f(x) = x³ en x = 2: la derivada analítica es 3x² = 12.
x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
(x**3).backward()
h = 1e-6
with torch.no_grad():  # la aproximación no necesita grafo
    aproximada = ((x + h) ** 3 - (x - h) ** 3) / (2 * h)
print("autograd:", x.grad.item())  # Expectativa: 12
print("diferencias finitas:", round(aproximada.item(), 6))  # Expectativa: 12

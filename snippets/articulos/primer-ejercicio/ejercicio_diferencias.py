import torch

# f(x) = x³ en x = 2: la derivada analítica es 3x² = 12.
x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
(x**3).backward()
h = 1e-3
with torch.no_grad():  # la aproximación no necesita grafo
    aproximada = ((x + h) ** 3 - (x - h) ** 3) / (2 * h)
print("autograd:", x.grad.item())  # Expectativa: 12
print("diferencias centradas:", aproximada.item())
print("diferencia:", aproximada.item() - 12)  # Expectativa: 1e-6

# En float32, el tipo por defecto, y con un h más pequeño, el redondeo domina.
x32 = torch.tensor(2.0)
h = 1e-6
print("float32, h = 1e-6:", (((x32 + h) ** 3 - (x32 - h) ** 3) / (2 * h)).item())

import torch

x = torch.tensor(3.0, requires_grad=True)
perdida = x * x  # operaciones directas -> pérdida
torch.autograd.backward(perdida)  # llama al motor con accumulate_grad=True
print("x.grad de la hoja:", x.grad.item())  # Expectativa: 6
perdida = x * x  # una pasada directa nueva...
perdida.backward()
print("sin limpiar:", x.grad.item())  # Expectativa: 12

import torch

x = torch.tensor(3.0, requires_grad=True)
(x * x).backward()
(x * x).backward()  # pasada directa nueva: grafo nuevo, misma hoja
print("sin limpiar:", x.grad)  # Expectativa: 12
x.grad = None
(x * x).backward()
print("tras x.grad = None:", x.grad)  # Expectativa: 6

import torch

x = torch.tensor(3.0, requires_grad=True)
(x * x).backward()
(x * x).backward()  # se recalcula la expresión: grafo nuevo, misma hoja
print("x.grad acumulado:", x.grad.item())  # Expectativa: 12
x.grad = None  # se vacía el campo antes de una nueva pasada
(x * x).backward()
print("tras x.grad = None:", x.grad.item())  # Expectativa: 6

import torch
from torch import nn

red = nn.Linear(3, 1)
x = torch.ones(2, 3)
normal = red(x)
print("normal → requires_grad:", normal.requires_grad, "· grad_fn:", normal.grad_fn.name())
with torch.no_grad():
    sin_grad = red(x)
print("no_grad → requires_grad:", sin_grad.requires_grad, "· grad_fn:", sin_grad.grad_fn)
with torch.inference_mode():
    inferencia = red(x)
print("inference_mode → requires_grad:", inferencia.requires_grad, end=" ")
print("· de inferencia:", inferencia.is_inference())

siguiente = nn.Linear(1, 1)
siguiente(sin_grad).sum().backward()  # un resultado de no_grad entra en el grafo como constante
print("tras no_grad, el gradiente llega:", siguiente.weight.grad is not None)  # Expectativa: True

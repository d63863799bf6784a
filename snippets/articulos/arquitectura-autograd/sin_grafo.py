import torch

x = torch.tensor(3.0, requires_grad=True)
with torch.no_grad():
    y = x * x  # dentro de no_grad no se registra ninguna operación
print("no_grad: requires_grad =", y.requires_grad, "| grad_fn =", y.grad_fn)
z = (x * x).detach()  # el mismo valor, separado del grafo
print("detach:  requires_grad =", z.requires_grad, "| grad_fn =", z.grad_fn)

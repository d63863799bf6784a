import torch

x = torch.tensor(3.0, requires_grad=True)
(x * x).backward()
x.grad = None  # opción 1: se suelta el tensor del gradiente
print("tras x.grad = None:", x.grad)

(x * x).backward()
x.grad.zero_()  # opción 2: el mismo tensor, puesto a cero
print("tras x.grad.zero_():", x.grad.item())

optimizador = torch.optim.SGD([x], lr=0.1)
(x * x).backward()
optimizador.zero_grad()  # opción 3: por defecto, set_to_none=True (como la opción 1)
print("tras optimizador.zero_grad():", x.grad)

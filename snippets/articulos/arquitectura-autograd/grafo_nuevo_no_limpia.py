import torch

x = torch.tensor(3.0, requires_grad=True)
(x * x).backward()
(x * x).backward()  # a fresh forward: new graph, same leaf
print("sin limpiar:", x.grad)  # Expectativa: 12
x.grad = None
(x * x).backward()
print("tras x.grad = None:", x.grad)  # Expectativa: 6

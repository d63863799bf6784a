import torch

x = torch.tensor(3.0, requires_grad=True)  # hoja
y = x * x  # resultado intermedio: no es hoja
y.backward()
print("x es hoja:", x.is_leaf, "| x.grad =", x.grad)
print("y es hoja:", y.is_leaf, "| y.grad =", y.grad)  # leerlo da un aviso

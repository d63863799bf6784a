import torch

x = torch.tensor([1.0, 2.0, 3.0])
y = torch.tensor([1.0, 3.0, 5.0])
w = torch.zeros((), requires_grad=True)
hoja = w  # otro nombre para la hoja del principio

((w * x - y) ** 2).mean().backward()
print("primer gradiente:", hoja.grad)
w = w - 0.1 * w.grad  # sin no_grad y sin in situ: un tensor nuevo, fruto de una resta
print("¿es una hoja?", w.is_leaf, "| grad_fn:", w.grad_fn.name())
((w * x - y) ** 2).mean().backward()
gradiente = w.grad  # leerlo da un aviso: w no es una hoja
print("w.grad:", gradiente)
print("la hoja del principio:", hoja.grad)  # el primer gradiente más el segundo
try:
    w = w - 0.1 * gradiente  # el paso siguiente
except TypeError as error:
    print("TypeError:", error)

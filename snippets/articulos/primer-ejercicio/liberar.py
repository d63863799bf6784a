import torch

x = torch.tensor(3.0, requires_grad=True)
suma = x + 1  # AddBackward0 no guarda tensores
suma.backward()
suma.backward()  # la segunda llamada sobre el mismo resultado funciona
print("con una suma, tras dos llamadas: x.grad =", x.grad.item())  # Expectativa: 2

x.grad = None
cuadrado = x * x  # MulBackward0 guarda sus dos factores
cuadrado.backward()  # y los libera al terminar
try:
    cuadrado.backward()
except RuntimeError as error:
    print("con un producto, la segunda llamada:", str(error).split(" (")[0])

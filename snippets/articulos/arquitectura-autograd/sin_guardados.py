import torch

x = torch.tensor(3.0, requires_grad=True)
y = x + 1  # la derivada de una suma no depende de sus sumandos: AddBackward0 no guarda nada
y.backward()
print("tras la primera llamada, x.grad =", x.grad)  # Expectativa: 1
y.backward()  # funciona: no había nada guardado que liberar
print("tras la segunda, x.grad =", x.grad)  # Expectativa: 2

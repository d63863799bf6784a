import torch

x = torch.tensor(3.0, requires_grad=True)
# La derivada de una suma no depende de sus sumandos: AddBackward0 no guarda ningún tensor.
y = x + 1
y.backward()
print("tras la primera llamada, x.grad =", x.grad)  # Expectativa: 1
y.backward()  # funciona: no había ningún tensor guardado que liberar
print("tras la segunda, x.grad =", x.grad)  # Expectativa: 2

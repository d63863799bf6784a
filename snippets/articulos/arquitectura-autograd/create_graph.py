import torch

x = torch.tensor(3.0, requires_grad=True)
y = x**3
y.backward(create_graph=True)
print(x.grad)  # Expectativa: 27
primera = x.grad  # la primera derivada, 3x², con su propio grafo
x.grad = None  # además rompe el ciclo de referencias del que avisa la documentación
primera.backward()
print(x.grad)  # Expectativa: 18

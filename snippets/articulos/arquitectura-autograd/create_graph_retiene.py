import torch

x = torch.tensor(3.0, requires_grad=True)
y = x**3
y.backward(create_graph=True)  # sin retain_graph: toma el valor de create_graph (True)
y.backward()  # PowBackward0 conserva lo que guardó: la segunda llamada funciona
print("x.grad =", x.grad.item())  # Expectativa: 54

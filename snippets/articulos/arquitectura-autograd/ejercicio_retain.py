import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x
y.backward(retain_graph=True)  # se conservan los tensores que guardó el nodo de x * x
primera = x.grad.item()
y.backward()  # segundo recorrido del mismo grafo: se acumula
print("tras el primero:", primera)  # Expectativa: 6
print("tras el segundo:", x.grad.item())  # Expectativa: 12

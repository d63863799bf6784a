import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x
y.backward()
print("primer backward, x.grad =", x.grad)
y.backward()  # el primer backward ya liberó el grafo de y

import torch

x = torch.tensor(3.0, requires_grad=True)
y = x**3
y.backward(create_graph=True)
print(x.grad)  # Expectativa: 27
first = x.grad
x.grad = None
first.backward()
print(x.grad)  # Expectativa: 18

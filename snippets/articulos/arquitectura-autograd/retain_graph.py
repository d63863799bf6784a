import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x
y.backward(retain_graph=True)
y.backward()
print(x.grad)  # Expectativa: 12

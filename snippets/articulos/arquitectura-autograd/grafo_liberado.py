import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x
y.backward()
print("primer backward, x.grad =", x.grad)
y.backward()  # the graph of y was freed by the first call

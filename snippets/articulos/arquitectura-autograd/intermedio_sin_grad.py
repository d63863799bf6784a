import torch

x = torch.tensor(3.0, requires_grad=True)  # leaf
y = x * x  # intermediate result: not a leaf
y.backward()
print("x es hoja:", x.is_leaf, "| x.grad =", x.grad)
print("y es hoja:", y.is_leaf, "| y.grad =", y.grad)  # reading it warns

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
# Un tensor suelto o una lista de tensores: la entrada los convierte en tupla.
torch.autograd.backward((x * x).sum())
print("con un tensor:", x.grad.tolist())
x.grad = None
torch.autograd.backward([(x * x).sum()])
print("con una lista:", x.grad.tolist())

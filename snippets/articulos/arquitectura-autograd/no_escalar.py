import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x  # tres valores, no un escalar
y.backward()  # _make_grads no puede crear el gradiente inicial por su cuenta

import torch

x = torch.ones(2, requires_grad=True)
y = (x * 3).sum()
# La dirección del objeto cambia en cada ejecución: se compara como [dirección].
print(y.grad_fn)
print(y.item())  # Expectativa: 6

import torch
from torch.autograd import gradcheck

# gradcheck compara el gradiente de autograd con diferencias finitas en
# float64 y devuelve True si coinciden dentro de su tolerancia.
x = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float64, requires_grad=True)
print("gradcheck de x·x:", gradcheck(lambda t: (t * t).sum(), (x,)))

import torch

# (3, 2) y (3,): alineadas por la derecha, 2 frente a 3 y ninguna es 1.
torch.ones(3, 2) + torch.ones(3)

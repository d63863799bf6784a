import torch

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])  # (2, 3)
proporciones = a / a.sum(dim=1)  # (2, 3) / (2,): el 2 se alinea con el 3 de la derecha

import torch

peso = torch.ones(2, requires_grad=True)  # una hoja: la crea el usuario, no una operación
peso.add_(1)

import torch

peso = torch.ones(2, requires_grad=True)  # una hoja que pide gradiente
peso.add_(1)

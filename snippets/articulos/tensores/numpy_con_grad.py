import torch

peso = torch.ones(2, requires_grad=True)
peso.numpy()

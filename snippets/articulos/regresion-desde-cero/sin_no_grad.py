import torch

entradas = torch.tensor([1.0, 2.0, 3.0])
objetivos = torch.tensor([1.0, 3.0, 5.0])
peso = torch.zeros((), requires_grad=True)
((peso * entradas - objetivos) ** 2).mean().backward()
peso -= 0.1 * peso.grad  # sin torch.no_grad(): autograd tendría que registrar el cambio de una hoja

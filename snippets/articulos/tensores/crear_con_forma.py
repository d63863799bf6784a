import torch

ceros = torch.zeros(2, 3)  # la forma se da con números sueltos o con una tupla
unos = torch.ones_like(ceros)  # la forma, el tipo y el dispositivo de `ceros`
pasos = torch.arange(0, 10, 3)  # de 0 a 10 (sin incluirlo), de 3 en 3
print("ceros:", ceros.shape, "· unos:", unos.shape)
print("pasos:", pasos)
print("sietes como pasos:", torch.full_like(pasos, 7))  # hereda el tipo entero

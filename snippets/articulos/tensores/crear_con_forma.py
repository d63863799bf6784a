import torch

ceros = torch.zeros(2, 3)  # la forma se da con números sueltos o con una tupla
unos = torch.ones_like(ceros)  # la forma, el tipo y el dispositivo de `ceros`
print("ceros:", ceros.shape, "· unos:", unos.shape)
multiplos = torch.arange(0, 10, 3)  # de 0 a 10 (sin incluirlo), de 3 en 3
print("múltiplos de 3:", multiplos)
print("sietes como múltiplos:", torch.full_like(multiplos, 7))  # hereda el tipo entero

import csv
from pathlib import Path

import torch
from torch.utils.data import random_split

with Path("digitos.csv").open(newline="") as archivo:
    tabla = torch.tensor([[int(v) for v in linea] for linea in csv.reader(archivo)])
imagenes = tabla[:, :64].to(torch.float32)
separador = torch.Generator().manual_seed(0)
entrenamiento, validacion, _ = random_split(range(1797), [1257, 270, 270], generator=separador)
x_ent, x_val = imagenes[entrenamiento.indices], imagenes[validacion.indices]

# Una media y una desviación típica por píxel: 64 de cada.
media, desviacion = x_ent.mean(dim=0), x_ent.std(dim=0)
print("píxeles con desviación típica 0:", (desviacion == 0).nonzero().flatten().tolist())
print("¿valen 0 en todas las imágenes?", imagenes[:, [0, 32, 39]].eq(0).all().item())
normalizada = (x_val - media) / desviacion
sin_numero = normalizada.isnan().sum().item()  # cuántos valores no son un número
print("valores que no son un número:", sin_numero)  # Expectativa: 810

# Arreglo: donde la desviación típica es 0, dividir entre 1 (el píxel queda en 0).
segura = torch.where(desviacion > 0, desviacion, torch.ones_like(desviacion))
normalizada = (x_val - media) / segura
print("con el arreglo:", normalizada.isnan().sum().item())  # Expectativa: 0

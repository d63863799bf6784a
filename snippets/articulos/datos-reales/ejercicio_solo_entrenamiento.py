import csv
from pathlib import Path

import torch
from torch.utils.data import Dataset, random_split


class Digitos(Dataset):
    """Los dígitos del CSV, con una transformación opcional de cada imagen."""

    def __init__(self, ruta, transform=None):
        with Path(ruta).open(newline="") as archivo:
            tabla = torch.tensor([[int(v) for v in linea] for linea in csv.reader(archivo)])
        self.imagenes, self.clases = tabla[:, :64].to(torch.float32), tabla[:, 64]
        self.transform = transform

    def __len__(self):
        return len(self.clases)

    def __getitem__(self, i):
        imagen = self.imagenes[i]
        if self.transform is not None:
            imagen = self.transform(imagen)
        return imagen, self.clases[i]


ruido = torch.Generator().manual_seed(1)  # un generador propio para el ruido


def con_ruido(imagen):
    """Suma ruido normal de desviación típica 1: cada vez que se pide, otro."""
    return imagen + torch.randn(imagen.shape, generator=ruido)


def separar(conjunto):
    """Las tres partes, siempre con la misma semilla: siempre los mismos índices."""
    return random_split(conjunto, [1257, 270, 270], generator=torch.Generator().manual_seed(0))


# Dos conjuntos sobre el mismo archivo: uno con ruido y otro sin él.
con, sin = Digitos("digitos.csv", transform=con_ruido), Digitos("digitos.csv")
entrenamiento, _, _ = separar(con)
entrenamiento_sin, validacion, prueba = separar(sin)
iguales = entrenamiento.indices == entrenamiento_sin.indices
print("los mismos índices de entrenamiento:", iguales)  # Expectativa: True
todos = set(entrenamiento.indices) | set(validacion.indices) | set(prueba.indices)
print("índices distintos en las tres partes:", len(todos))  # Expectativa: 1797
primera, segunda = entrenamiento[0][0], entrenamiento[0][0]
print("entrenamiento, el ejemplo 0 dos veces igual:", torch.equal(primera, segunda))
print("validación, el ejemplo 0 dos veces igual:", torch.equal(validacion[0][0], validacion[0][0]))
print("validación sin ruido:", torch.equal(validacion[0][0], sin.imagenes[validacion.indices[0]]))

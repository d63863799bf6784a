import copy
import csv
from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, random_split


class Digitos(Dataset):
    """Los dígitos de digitos.csv: imágenes de forma (1, 8, 8) en float32 y clases int64."""

    def __init__(self, ruta, transform=None):
        with Path(ruta).open(newline="") as archivo:
            filas = [[int(valor) for valor in fila] for fila in csv.reader(archivo)]
        tabla = torch.tensor(filas)  # (1797, 65), int64
        # Los 64 primeros números de cada fila son la imagen: un canal de 8 × 8.
        self.imagenes = tabla[:, :64].reshape(-1, 1, 8, 8).float()
        self.clases = tabla[:, 64]  # el último, el dígito
        self.transform = transform

    def __len__(self):
        return len(self.clases)

    def __getitem__(self, i):
        imagen = self.imagenes[i]
        if self.transform is not None:
            imagen = self.transform(imagen)
        return imagen, self.clases[i]


digitos = Digitos("digitos.csv")
entrenamiento, validacion, prueba = random_split(
    digitos, [1257, 270, 270], generator=torch.Generator().manual_seed(0)
)
print("imágenes:", tuple(digitos.imagenes.shape))  # Expectativa: (1797, 1, 8, 8)
print("entrenamiento, validación, prueba:", len(entrenamiento), len(validacion), len(prueba))
print(f"la imagen 0 es un {digitos.clases[0].item()}:")
print(digitos.imagenes[0, 0].int())

# Media y desviación típica de los píxeles, solo con las imágenes de entrenamiento.
pixeles = digitos.imagenes[entrenamiento.indices]
media, desviacion = pixeles.mean().item(), pixeles.std().item()
print(f"media {media:.4f}, desviación típica {desviacion:.4f}")


def normalizar(imagen):
    return (imagen - media) / desviacion


digitos.transform = normalizar  # los tres subconjuntos leen de este mismo conjunto
imagen, clase = entrenamiento[0]
print("un ejemplo:", tuple(imagen.shape), imagen.dtype, clase.dtype)

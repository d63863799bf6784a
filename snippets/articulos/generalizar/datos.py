import csv
from pathlib import Path

import torch
from torch.utils.data import DataLoader, Dataset, random_split


class Digitos(Dataset):
    """Los dígitos de digitos.csv: 64 píxeles de 0 a 16 y la clase, de 0 a 9, por línea."""

    def __init__(self, ruta, transform=None, target_transform=None):
        with Path(ruta).open(newline="") as archivo:
            filas = [[int(valor) for valor in fila] for fila in csv.reader(archivo)]
        tabla = torch.tensor(filas)  # (1797, 65), enteros de 64 bits
        self.pixeles = tabla[:, :64].float()  # (N, 64), float32
        self.clases = tabla[:, 64]  # (N,), int64
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.clases)

    def __getitem__(self, i):
        x, y = self.pixeles[i], self.clases[i]
        if self.transform is not None:
            x = self.transform(x)
        if self.target_transform is not None:
            y = self.target_transform(y)
        return x, y


conjunto = Digitos("digitos.csv")
entrenamiento, validacion, prueba = random_split(
    conjunto, [1257, 270, 270], generator=torch.Generator().manual_seed(0)
)
print("ejemplos:", len(conjunto))  # Expectativa: 1797
print("entrenamiento:", len(entrenamiento))
print("validación:", len(validacion))
print("prueba:", len(prueba))
# Cada subconjunto guarda los índices de sus ejemplos en el conjunto completo.
por_clase = torch.bincount(conjunto.clases[validacion.indices])
print("ejemplos de validación por clase:", por_clase.tolist())

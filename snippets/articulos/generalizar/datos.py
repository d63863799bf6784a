import csv
from pathlib import Path

import torch
from torch.utils.data import DataLoader, Dataset, random_split


class Digitos(Dataset):
    """Dígitos de un CSV: en cada línea, 64 píxeles de 0 a 16 y la clase."""

    def __init__(self, ruta, transform=None, target_transform=None):
        # El archivo se lee una sola vez, al crear el conjunto.
        with Path(ruta).open(newline="") as archivo:
            filas = [[int(v) for v in linea] for linea in csv.reader(archivo)]
        tabla = torch.tensor(filas)  # (N, 65), enteros de 64 bits
        self.imagenes = tabla[:, :64].to(torch.float32)  # (N, 64)
        self.clases = tabla[:, 64]  # (N,): índices de clase
        self.transform = transform  # para cada imagen, al pedirla
        self.target_transform = target_transform  # para cada clase

    def __len__(self):
        return len(self.clases)

    def __getitem__(self, i):
        imagen, clase = self.imagenes[i], self.clases[i]
        if self.transform is not None:
            imagen = self.transform(imagen)
        if self.target_transform is not None:
            clase = self.target_transform(clase)
        return imagen, clase


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

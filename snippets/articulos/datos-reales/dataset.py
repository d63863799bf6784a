import csv
from pathlib import Path

import torch
from torch.utils.data import Dataset


class Digitos(Dataset):
    """Los dígitos del CSV: 64 píxeles de 0 a 16 y la clase, una imagen por línea."""

    def __init__(self, ruta, transform=None, target_transform=None):
        with Path(ruta).open(newline="") as archivo:  # se lee una sola vez, al crear el conjunto
            filas = [[int(valor) for valor in linea] for linea in csv.reader(archivo)]
        tabla = torch.tensor(filas)  # (N, 65), enteros de 64 bits
        self.imagenes = tabla[:, :64].to(torch.float32)  # (N, 64): una fila por imagen
        self.clases = tabla[:, 64]  # (N,): índices de clase, torch.int64
        self.transform = transform  # se aplica a cada imagen al pedirla
        self.target_transform = target_transform  # se aplica a cada clase al pedirla

    def __len__(self):
        return len(self.clases)

    def __getitem__(self, i):
        imagen, clase = self.imagenes[i], self.clases[i]
        if self.transform is not None:
            imagen = self.transform(imagen)
        if self.target_transform is not None:
            clase = self.target_transform(clase)
        return imagen, clase


digitos = Digitos("digitos.csv")
print("ejemplos:", len(digitos))  # Expectativa: 1797
imagen, clase = digitos[0]
print("imagen:", tuple(imagen.shape), imagen.dtype)
print("clase:", clase, clase.dtype)

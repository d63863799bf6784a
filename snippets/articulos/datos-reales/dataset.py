import csv
from pathlib import Path

import torch
from torch.utils.data import Dataset


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


digitos = Digitos("digitos.csv")
print("ejemplos:", len(digitos))  # Expectativa: 1797
imagen, clase = digitos[0]
print("imagen:", tuple(imagen.shape), imagen.dtype)
print("clase:", clase, clase.dtype)

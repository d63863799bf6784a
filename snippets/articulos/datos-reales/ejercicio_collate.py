import csv
from pathlib import Path

import torch
from torch.utils.data import DataLoader, Dataset


class DigitosComoDiccionario(Dataset):
    """Cada ejemplo, un diccionario con cuatro tipos distintos de valor."""

    def __init__(self, ruta):
        with Path(ruta).open(newline="") as archivo:
            self.filas = [[int(v) for v in linea] for linea in csv.reader(archivo)]

    def __len__(self):
        return len(self.filas)

    def __getitem__(self, i):
        fila = self.filas[i]
        return {
            "imagen": torch.tensor(fila[:64], dtype=torch.float32),  # tensor
            "clase": fila[64],  # int de Python
            "tinta": sum(valor > 0 for valor in fila[:64]) / 64,  # float de Python
            "nombre": f"digito-{i}",  # str
        }


lote = next(iter(DataLoader(DigitosComoDiccionario("digitos.csv"), batch_size=3)))
print(type(lote).__name__, list(lote))
for clave, valor in lote.items():
    if isinstance(valor, torch.Tensor):
        print(f"{clave}: tensor {tuple(valor.shape)} {valor.dtype}")
    else:
        print(f"{clave}: {type(valor).__name__} {valor}")

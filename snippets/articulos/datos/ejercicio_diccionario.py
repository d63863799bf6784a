import torch
from torch.utils.data import DataLoader, Dataset


class Fichas(Dataset):
    """Cada ejemplo es un diccionario: dos medidas y una clase entera."""

    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"medidas": torch.tensor([float(i), 10.0 * i]), "clase": i % 2}


lote = next(iter(DataLoader(Fichas(), batch_size=3)))
print("claves:", list(lote))
print("medidas:", tuple(lote["medidas"].shape), lote["medidas"].dtype)
print("clase:", lote["clase"], lote["clase"].dtype)

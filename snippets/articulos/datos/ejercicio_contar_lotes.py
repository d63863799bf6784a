import torch
from torch.utils.data import DataLoader, TensorDataset

datos = TensorDataset(torch.arange(103))
for drop_last in (False, True):
    cargador = DataLoader(datos, batch_size=10, drop_last=drop_last)
    tamanos = [len(lote) for (lote,) in cargador]
    print(f"drop_last={drop_last}: {len(cargador)} lotes, el último de {tamanos[-1]}")
    print("  ejemplos vistos:", sum(tamanos))

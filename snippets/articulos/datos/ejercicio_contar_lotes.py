import torch
from torch.utils.data import DataLoader, TensorDataset

datos = TensorDataset(torch.arange(103))
for drop_last in (False, True):
    cargador = DataLoader(datos, batch_size=10, drop_last=drop_last)
    tamanos = [len(lote) for (lote,) in cargador]
    print(f"drop_last={drop_last}: {len(cargador)} lotes, el último de {tamanos[-1]}")
    print("  ejemplos vistos:", sum(tamanos))

# Con shuffle=True, los 3 que quedan fuera salen al azar en cada época.
generador = torch.Generator().manual_seed(0)
barajado = DataLoader(datos, batch_size=10, shuffle=True, drop_last=True, generator=generador)
for epoca in range(1, 6):
    vistos = set(torch.cat([lote for (lote,) in barajado]).tolist())
    print(f"época {epoca}, fuera:", sorted(set(range(103)) - vistos))

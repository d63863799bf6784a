from torch.utils.data import DataLoader

cargador = DataLoader(datos, batch_size=4)  # 10 ejemplos en lotes de 4
for numero, (entradas, objetivos) in enumerate(cargador):
    print(f"lote {numero}: entradas {tuple(entradas.shape)}, objetivos {tuple(objetivos.shape)}")
print("lotes por época:", len(cargador))  # Expectativa: 3

sin_resto = DataLoader(datos, batch_size=4, drop_last=True)
print("con drop_last:", [tuple(e.shape) for e, _ in sin_resto])
print("lotes por época con drop_last:", len(sin_resto))  # Expectativa: 2

barajador = torch.Generator().manual_seed(0)
cargador = DataLoader(entrenamiento, batch_size=64, shuffle=True, generator=barajador)
print("lotes por época:", len(cargador))  # Expectativa: 20
x_lote, y_lote = next(iter(cargador))
print("imágenes:", tuple(x_lote.shape), x_lote.dtype)
print("clases:", tuple(y_lote.shape), y_lote.dtype)
print("tamaños de una época:", [len(y) for _, y in cargador])

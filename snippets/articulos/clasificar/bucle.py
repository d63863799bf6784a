optimizador = torch.optim.Adam(modelo.parameters(), lr=0.01)
barajador = torch.Generator().manual_seed(0)
cargador = DataLoader(entrenamiento, batch_size=64, shuffle=True, generator=barajador)

for epoca in range(1, 11):
    modelo.train()
    suma = 0.0
    for x_lote, y_lote in cargador:
        imagenes_lote, clases_lote = x_lote.to(dispositivo), y_lote.to(dispositivo)
        optimizador.zero_grad()
        perdida = criterio(modelo(imagenes_lote), clases_lote)
        perdida.backward()
        optimizador.step()
        suma += perdida.item() * len(clases_lote)
    print(f"época {epoca}: pérdida {suma / len(entrenamiento):.4f}")

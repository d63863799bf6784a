def entrenar_una_epoca(modelo, criterio, optimizador, cargador):
    """Una pasada por todos los lotes del cargador; devuelve la pérdida media."""
    modelo.train()
    suma = 0.0
    for x_lote, y_lote in cargador:
        entradas, objetivos = x_lote.to(dispositivo), y_lote.to(dispositivo)  # cada lote, al modelo
        optimizador.zero_grad()
        perdida = criterio(modelo(entradas), objetivos)
        perdida.backward()
        optimizador.step()
        suma += perdida.item() * len(entradas)
    return suma / len(cargador.dataset)


barajador = torch.Generator().manual_seed(0)  # el orden de los lotes sale de este generador
cargador = DataLoader(entrenamiento, batch_size=32, shuffle=True, generator=barajador)
perdidas = []
for epoca in range(1, 13):
    media = entrenar_una_epoca(modelo, criterio, optimizador, cargador)
    perdidas.append(media)
    print(f"época {epoca}: pérdida {media:.4f}")

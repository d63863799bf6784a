def entrenar_una_epoca(modelo, criterio, optimizador, x, y, tam_lote=32):
    """Una pasada por todos los datos, en lotes barajados; devuelve la pérdida media."""
    modelo.train()
    orden = torch.randperm(len(x))
    suma = 0.0
    for inicio in range(0, len(x), tam_lote):
        indices = orden[inicio : inicio + tam_lote]
        optimizador.zero_grad()
        perdida = criterio(modelo(x[indices]), y[indices])
        perdida.backward()
        optimizador.step()
        suma += perdida.item() * len(indices)
    return suma / len(x)


torch.manual_seed(0)  # el orden de los lotes también sale del generador
perdidas = []
for epoca in range(1, 13):
    media = entrenar_una_epoca(modelo, criterio, optimizador, x_entrenamiento, y_entrenamiento)
    perdidas.append(media)
    print(f"época {epoca}: pérdida {media:.4f}")

barajador = torch.Generator().manual_seed(0)
cargador = DataLoader(entrenamiento, batch_size=64, shuffle=True, generator=barajador)


def entrenar_epoca(modelo, optimizador, cargador):
    """Una época en lotes; devuelve la pérdida media de entrenamiento."""
    modelo.train()
    suma = 0.0
    for x, y in cargador:
        optimizador.zero_grad()
        perdida = criterio(modelo(x), y)
        perdida.backward()
        optimizador.step()
        suma += perdida.item() * len(y)
    return suma / len(cargador.dataset)


modelo = nuevo_modelo(64)
optimizador = torch.optim.Adam(modelo.parameters(), lr=0.01)
for epoca in range(1, 16):
    perdida_ent = entrenar_epoca(modelo, optimizador, cargador)
    perdida_val, exactitud_val = evaluar(modelo, x_val, y_val)
    print(f"época {epoca}: pérdida de validación {perdida_val:.4f}")
print(f"al final: pérdida de entrenamiento {perdida_ent:.4f}")
print(f"al final: exactitud de validación {exactitud_val:.4f}")

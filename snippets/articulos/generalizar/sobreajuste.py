# Pocos datos y un modelo ancho: 100 ejemplos de entrenamiento y 128 unidades ocultas.
x_poco, y_poco = x_ent[:100], y_ent[:100]


def entrenar_paso(modelo, optimizador, x, y):
    """Un paso con todos los ejemplos a la vez: aquí, una época es un solo paso."""
    modelo.train()
    optimizador.zero_grad()
    perdida = criterio(modelo(x), y)
    perdida.backward()
    optimizador.step()
    return perdida.item()


def entrenar_poco(modelo, optimizador, epocas=60):
    """Entrena con los 100 ejemplos; una fila por época: (época, pérdida de entrenamiento,
    pérdida de validación, exactitud de validación)."""
    historia = []
    for epoca in range(1, epocas + 1):
        perdida_ent = entrenar_paso(modelo, optimizador, x_poco, y_poco)
        historia.append((epoca, perdida_ent, *evaluar(modelo, x_val, y_val)))
    return historia


ancho = nuevo_modelo(128)
historia = entrenar_poco(ancho, torch.optim.Adam(ancho.parameters(), lr=0.01))
for epoca, perdida_ent, _, _ in historia:
    if epoca == 1 or epoca % 3 == 0:
        print(f"época {epoca}: pérdida de entrenamiento {perdida_ent:.4f}")

def parada_temprana(modelo, optimizador, paciencia=5, max_epocas=60):
    """Entrena con los 100 ejemplos hasta que la pérdida de validación lleva `paciencia`
    épocas sin mejorar; guarda el mejor estado de dos maneras, para compararlas."""
    mejor_perdida, mejor_epoca, sin_mejorar = math.inf, 0, 0
    for epoca in range(1, max_epocas + 1):
        entrenar_paso(modelo, optimizador, x_poco, y_poco)
        perdida_val, _ = evaluar(modelo, x_val, y_val)
        if perdida_val < mejor_perdida:
            mejor_perdida, mejor_epoca, sin_mejorar = perdida_val, epoca, 0
            mejor_copia = copy.deepcopy(modelo.state_dict())  # lo correcto
            mejor_referencia = modelo.state_dict()  # el error: seguirá al modelo
        else:
            sin_mejorar += 1
            if sin_mejorar == paciencia:
                break
    print(f"se detiene en la época {epoca}; la mejor fue la {mejor_epoca}: {mejor_perdida:.4f}")
    return mejor_perdida, mejor_copia, mejor_referencia


modelo = nuevo_modelo(128)  # los mismos pesos iniciales que el de la curva anterior
mejor_perdida, mejor_copia, mejor_referencia = parada_temprana(
    modelo, torch.optim.Adam(modelo.parameters(), lr=0.01)
)
perdida_final, _ = evaluar(modelo, x_val, y_val)
print(f"el modelo al detenerse: {perdida_final:.4f}")
guardados = [("copy.deepcopy", mejor_copia), ("state_dict() sin copia", mejor_referencia)]
for nombre, estado in guardados:
    recuperado = nuevo_modelo(128)
    recuperado.load_state_dict(estado)
    print(f"cargado desde {nombre}: {evaluar(recuperado, x_val, y_val)[0]:.4f}")
modelo.load_state_dict(mejor_copia)  # el modelo vuelve a sus mejores pesos
recuperada, _ = evaluar(modelo, x_val, y_val)
print("¿recupera el mínimo?", recuperada == mejor_perdida)  # Expectativa: True

mejor_epoca = historia.index(max(historia)) + 1
print("mejor época:", mejor_epoca, f"(exactitud de validación {max(historia):.4f})")
print("la red tiene sus pesos:", exactitud(red, validacion) == max(historia))  # Expectativa: True
print(f"exactitud de entrenamiento: {exactitud(red, entrenamiento):.4f}")

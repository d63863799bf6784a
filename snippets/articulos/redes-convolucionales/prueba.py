import math

acierto = exactitud(red, prueba)  # una sola vez, con el modelo ya elegido
aciertos = round(acierto * len(prueba))
print(f"exactitud en prueba: {acierto:.4f} ({aciertos} de {len(prueba)})")
print("al menos 0,9:", acierto >= 0.9)  # Expectativa: True

# Cuánto pesa una imagen y cuánto varía la exactitud medida con 270 imágenes.
print(f"una imagen: {1 / len(prueba):.4f}")
error_tipico = math.sqrt(acierto * (1 - acierto) / len(prueba))
print(f"error típico: {error_tipico:.4f}")

for epoca, _, perdida_val, _ in historia:
    if epoca == 1 or epoca % 3 == 0:
        print(f"época {epoca}: pérdida de validación {perdida_val:.4f}")
minimo = min(historia, key=lambda fila: fila[2])  # la fila de menor pérdida de validación
print(f"mínimo: {minimo[2]:.4f}, en la época {minimo[0]}; exactitud {minimo[3]:.4f}")
print(f"al final: {historia[-1][2]:.4f}; exactitud {historia[-1][3]:.4f}")

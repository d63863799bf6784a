# Diez épocas con todos los ejemplos de entrenamiento a la vez, para cada tasa de aprendizaje.
for lr in (0.001, 0.01, 0.1, 1.0):
    modelo = nuevo_modelo(64)
    optimizador = torch.optim.Adam(modelo.parameters(), lr=lr)
    perdidas = [entrenar_paso(modelo, optimizador, x_ent, y_ent) for _ in range(10)]
    perdida_val, exactitud_val = evaluar(modelo, x_val, y_val)
    print(f"lr={lr}: " + " ".join(f"{p:.3g}" for p in perdidas))
    print(f"  validación: pérdida {perdida_val:.4f}, exactitud {exactitud_val:.4f}")

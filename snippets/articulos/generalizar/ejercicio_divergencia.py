modelo = nuevo_modelo(64)
optimizador = torch.optim.SGD(modelo.parameters(), lr=1e10)
for epoca in range(1, 11):
    perdida = entrenar_paso(modelo, optimizador, x_ent, y_ent)
    print(f"época {epoca}: pérdida {perdida:.4g}")
    if not math.isfinite(perdida):
        print("pérdida no finita: se detiene el entrenamiento")
        break
print(f"un paso más: {entrenar_paso(modelo, optimizador, x_ent, y_ent)}")

# El modelo con Dropout, medido con los datos de validación en los dos modos.
print(f"en modo de evaluación: {evaluar(con_dropout, x_val, y_val)[0]:.4f}")
con_dropout.train()
with torch.no_grad():
    for intento in range(1, 4):
        perdida = criterio(con_dropout(x_val), y_val).item()
        print(f"en modo de entrenamiento, intento {intento}: {perdida:.4f}")

# La primera y única vez que el código lee los datos de prueba.
x_pru, y_pru = tensores(prueba)
perdida_pru, exactitud_pru = evaluar(elegido, x_pru, y_pru)
print(f"prueba: pérdida {perdida_pru:.4f}, exactitud {exactitud_pru:.4f}")
print(f"aciertos: {round(exactitud_pru * len(y_pru))} de {len(y_pru)}")
print("¿más del 90 % de aciertos?", exactitud_pru > 0.9)  # Expectativa: True

# Los mismos pesos iniciales y los mismos 100 ejemplos; cambia solo la regularización.
historias = {"Adam": historia}  # la del sobreajuste de arriba
modelo = nuevo_modelo(128)
optimizador = torch.optim.AdamW(modelo.parameters(), lr=0.01, weight_decay=1.0)
historias["AdamW, weight_decay=1"] = entrenar_poco(modelo, optimizador)
con_dropout = nuevo_modelo(128, p_dropout=0.5)
optimizador = torch.optim.Adam(con_dropout.parameters(), lr=0.01)
historias["Adam y Dropout(0.5)"] = entrenar_poco(con_dropout, optimizador)

for nombre, filas in historias.items():
    minimo = min(filas, key=lambda fila: fila[2])
    print(f"{nombre}:")
    print(f"  mínimo de validación {minimo[2]:.4f}, en la época {minimo[0]}")
    print(f"  al final {filas[-1][2]:.4f}, exactitud {filas[-1][3]:.4f}")

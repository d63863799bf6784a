variantes = [  # (p_dropout, clase del optimizador, weight_decay)
    (0.0, torch.optim.Adam, 0.0),
    (0.0, torch.optim.AdamW, 1.0),
    (0.5, torch.optim.Adam, 0.0),
]
for semilla in (1, 2, 3):
    finales = []
    for p_dropout, clase, decaimiento in variantes:
        modelo = nuevo_modelo(128, p_dropout=p_dropout, semilla=semilla)
        optimizador = clase(modelo.parameters(), lr=0.01, weight_decay=decaimiento)
        finales.append(entrenar_poco(modelo, optimizador)[-1][2])  # pérdida de validación final
    adam, adamw, dropout = finales
    print(f"semilla {semilla}: Adam {adam:.4f}, AdamW {adamw:.4f}, Dropout {dropout:.4f}")

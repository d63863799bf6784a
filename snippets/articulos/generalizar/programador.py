elegido = nuevo_modelo(128, p_dropout=0.2)
optimizador = torch.optim.AdamW(elegido.parameters(), lr=0.01)  # weight_decay=0.01
# Divide lr entre 2 cuando la pérdida de validación lleva 3 épocas sin mejorar.
programador = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizador, factor=0.5, patience=2)
mejor_perdida, mejor_estado = math.inf, None
for epoca in range(1, 21):
    lr = optimizador.param_groups[0]["lr"]  # la tasa con la que se entrena esta época
    entrenar_epoca(elegido, optimizador, cargador)
    perdida_val, exactitud_val = evaluar(elegido, x_val, y_val)
    programador.step(perdida_val)  # decide la tasa de la época siguiente
    if perdida_val < mejor_perdida:
        mejor_perdida, mejor_epoca = perdida_val, epoca
        mejor_estado = copy.deepcopy(elegido.state_dict())
    print(f"época {epoca:2}: lr {lr:.5f}, pérdida de validación {perdida_val:.4f}")
elegido.load_state_dict(mejor_estado)
perdida_val, exactitud_val = evaluar(elegido, x_val, y_val)
print(f"mejores pesos: los de la época {mejor_epoca}")
print(f"validación: pérdida {perdida_val:.4f}, exactitud {exactitud_val:.4f}")

torch.manual_seed(0)
densa = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
historia_densa = entrenar(densa)  # el mismo entrenamiento, los mismos lotes
for nombre, h in [("red convolucional", historia), ("red densa", historia_densa)]:
    epoca = h.index(max(h)) + 1
    aciertos = round(max(h) * len(validacion))
    print(f"{nombre}: mejor época {epoca}, {aciertos} de {len(validacion)} en validación")

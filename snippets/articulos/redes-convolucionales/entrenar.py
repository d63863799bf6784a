def exactitud(modelo, datos):
    """Fracción de aciertos, en modo de evaluación y sin grafo."""
    modelo.eval()
    with torch.inference_mode():
        imagenes, clases = next(iter(DataLoader(datos, batch_size=len(datos))))
        return (modelo(imagenes).argmax(dim=1) == clases).float().mean().item()


def entrenar(modelo, epocas=15):
    """Entrena con Adam y deja en el modelo los pesos de su mejor época en validación."""
    optimizador = torch.optim.Adam(modelo.parameters(), lr=0.01)
    criterio = nn.CrossEntropyLoss()
    barajador = torch.Generator().manual_seed(0)
    cargador = DataLoader(entrenamiento, batch_size=64, shuffle=True, generator=barajador)
    historia, mejor, mejor_estado = [], -1.0, None
    for _ in range(epocas):
        modelo.train()
        for imagenes, clases in cargador:
            optimizador.zero_grad()
            criterio(modelo(imagenes), clases).backward()
            optimizador.step()
        acierto = exactitud(modelo, validacion)
        historia.append(acierto)
        if acierto > mejor:  # una copia de verdad: state_dict() comparte memoria con el modelo
            mejor, mejor_estado = acierto, copy.deepcopy(modelo.state_dict())
    modelo.load_state_dict(mejor_estado)
    return historia


torch.manual_seed(0)
red = crear_red()
historia = entrenar(red)
for epoca, acierto in enumerate(historia, start=1):
    print(f"época {epoca}: exactitud de validación {acierto:.4f}")

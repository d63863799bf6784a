def entrenar_a_mano(lr, epocas):
    """Descenso de gradiente con todos los puntos en cada época; devuelve w, b y las pérdidas."""
    w = torch.zeros((), requires_grad=True)
    b = torch.zeros((), requires_grad=True)
    perdidas = []
    for _ in range(epocas):
        perdida = ((w * x + b - y) ** 2).mean()  # pasada directa
        perdida.backward()  # retropropagación
        with torch.no_grad():  # actualización, fuera del grafo
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad = None  # a cero para la época siguiente
        b.grad = None
        perdidas.append(perdida.item())
    return w, b, perdidas


w, b, perdidas = entrenar_a_mano(lr=0.1, epocas=60)
for epoca, valor in enumerate(perdidas, start=1):
    if epoca <= 10 or epoca % 10 == 0:
        print(f"época {epoca}: pérdida {valor:.4f}")
print(f"al terminar: w = {w.item():.4f}, b = {b.item():.4f}")

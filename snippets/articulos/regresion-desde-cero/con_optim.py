def entrenar_con_sgd(lr, epocas):
    """El mismo entrenamiento, con torch.optim.SGD haciendo la actualización."""
    w = torch.zeros((), requires_grad=True)
    b = torch.zeros((), requires_grad=True)
    optimizador = torch.optim.SGD([w, b], lr=lr)  # recibe las hojas que debe actualizar
    perdidas = []
    for _ in range(epocas):
        optimizador.zero_grad()  # deja w.grad y b.grad en None
        perdida = ((w * x + b - y) ** 2).mean()
        perdida.backward()
        optimizador.step()  # w y b, menos lr por su gradiente, sin registrar nada
        perdidas.append(perdida.item())
    return w, b, perdidas


w_sgd, b_sgd, perdidas_sgd = entrenar_con_sgd(lr=0.1, epocas=60)
diferencias = [abs(p - q) for p, q in zip(perdidas, perdidas_sgd, strict=True)]
iguales = sum(d == 0 for d in diferencias)
print(f"épocas con la misma pérdida, bit a bit: {iguales} de {len(diferencias)}")
print(f"mayor diferencia de pérdida: {max(diferencias):.1e}")
print(f"a mano: w = {w.item():.7f}, b = {b.item():.7f}")
print(f"SGD:    w = {w_sgd.item():.7f}, b = {b_sgd.item():.7f}")
print("w sigue siendo una hoja:", w_sgd.is_leaf)  # Expectativa: True
cerca = torch.allclose(w, w_sgd) and torch.allclose(b, b_sgd)
print("iguales salvo redondeo:", cerca)  # Expectativa: True

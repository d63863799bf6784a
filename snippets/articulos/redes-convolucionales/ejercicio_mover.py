# Las imágenes de validación sin normalizar, movidas un píxel a la derecha:
# la primera columna queda en cero y la última se pierde.
originales = digitos.imagenes[validacion.indices]
movidas = torch.zeros_like(originales)
movidas[..., 1:] = originales[..., :-1]
clases = digitos.clases[validacion.indices]

for nombre, modelo in [("red convolucional", red), ("red densa", densa)]:
    modelo.eval()
    with torch.inference_mode():
        antes = (modelo(normalizar(originales)).argmax(dim=1) == clases).float().mean()
        despues = (modelo(normalizar(movidas)).argmax(dim=1) == clases).float().mean()
    print(f"{nombre}: {antes.item():.4f} → {despues.item():.4f}")

imagenes, clases = digitos.imagenes, digitos.clases
print("imágenes:", tuple(imagenes.shape), imagenes.dtype)
print("de", imagenes.min().item(), "a", imagenes.max().item())
print("valores distintos:", imagenes.unique().int().tolist())
print("clases:", tuple(clases.shape), clases.dtype)
# Según la página del conjunto: 178 ceros, 182 unos, 177 doses…
cuenta = torch.bincount(clases).tolist()
print("por clase:", cuenta)  # Expectativa: [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]


def dibujar(imagen):
    """Imprime una imagen de 64 valores como 8 filas de texto, de claro a oscuro."""
    tonos = "·░▒▓█"  # 0 → «·»; 16 → «█»
    for fila in imagen.view(8, 8).int().tolist():
        print("".join(tonos[valor * 4 // 16] * 2 for valor in fila))


print("la imagen 0, de clase", clases[0].item())
dibujar(imagenes[0])

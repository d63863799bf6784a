class Normalizar:
    """Resta una media y divide entre una desviación típica fijadas al crearla."""

    def __init__(self, media, desviacion):
        self.media, self.desviacion = media, desviacion

    def __call__(self, imagen):
        return (imagen - self.media) / self.desviacion


# Las estadísticas salen solo de las imágenes de entrenamiento.
pixeles_ent = digitos.imagenes[entrenamiento.indices]
media, desviacion = pixeles_ent.mean(), pixeles_ent.std()
print(f"entrenamiento: media {media:.4f}, desviación típica {desviacion:.4f}")
# Con todas las imágenes, validación y prueba incluidas, salen otras.
todas = digitos.imagenes
print(f"todas:         media {todas.mean():.4f}, desviación típica {todas.std():.4f}")

# Los tres Subset piden sus ejemplos a `digitos`: la transformación va en él.
digitos.transform = Normalizar(media, desviacion)
for nombre, parte in partes.items():
    x = torch.stack([imagen for imagen, _ in parte])  # las imágenes ya normalizadas
    print(f"{nombre}: media {x.mean():.4f}, desviación típica {x.std():.4f}")

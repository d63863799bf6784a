# La media y la desviación típica salen solo de los píxeles de entrenamiento.
pixeles_ent = conjunto.imagenes[entrenamiento.indices]
media, desviacion = pixeles_ent.mean(), pixeles_ent.std()
print(f"píxeles de entrenamiento: media {media:.4f}, desviación típica {desviacion:.4f}")


class Normalizar:
    """Resta una media y divide entre una desviación típica fijadas al crearla."""

    def __init__(self, media, desviacion):
        self.media, self.desviacion = media, desviacion

    def __call__(self, imagen):
        return (imagen - self.media) / self.desviacion


# Los tres subconjuntos leen del mismo conjunto: los tres usan esta transformación.
conjunto.transform = Normalizar(media, desviacion)


def tensores(subconjunto):
    """Todo un subconjunto en un solo lote: los píxeles normalizados y las clases."""
    return next(iter(DataLoader(subconjunto, batch_size=len(subconjunto))))


x_ent, y_ent = tensores(entrenamiento)
x_val, y_val = tensores(validacion)
print("x_ent:", tuple(x_ent.shape), x_ent.dtype, "· y_ent:", tuple(y_ent.shape), y_ent.dtype)
print(f"entrenamiento normalizado: media {x_ent.mean():.4f}, desviación típica {x_ent.std():.4f}")
print(f"validación normalizada: media {x_val.mean():.4f}, desviación típica {x_val.std():.4f}")

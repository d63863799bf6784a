from torch.nn.functional import one_hot
from torch.utils.data import DataLoader


def a_vector(clase):
    """La clase como vector de 10 valores: 1 en su posición y 0 en las demás."""
    return one_hot(clase, num_classes=10).to(torch.float32)


con_vector = Digitos("digitos.csv", transform=digitos.transform, target_transform=a_vector)
imagen, objetivo = con_vector[0]
print("clase:", digitos.clases[0].item(), "→ objetivo:", objetivo)
imagenes_lote, objetivos_lote = next(iter(DataLoader(con_vector, batch_size=4)))
print("imágenes del lote:", tuple(imagenes_lote.shape), imagenes_lote.dtype)
print("objetivos del lote:", tuple(objetivos_lote.shape), objetivos_lote.dtype)

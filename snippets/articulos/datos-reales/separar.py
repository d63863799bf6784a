from torch.utils.data import random_split

separador = torch.Generator().manual_seed(0)
entrenamiento, validacion, prueba = random_split(digitos, [1257, 270, 270], generator=separador)
partes = {"entrenamiento": entrenamiento, "validación": validacion, "prueba": prueba}
for nombre, parte in partes.items():
    cuenta = torch.bincount(digitos.clases[parte.indices], minlength=10).tolist()
    print(f"{nombre}: {len(parte)} ejemplos; por clase: {cuenta}")
todos = set(entrenamiento.indices) | set(validacion.indices) | set(prueba.indices)
print("índices distintos:", len(todos))  # Expectativa: 1797

from torch.utils.data import random_split

entrenamiento, prueba = random_split(puntos, [0.8, 0.2], generator=torch.Generator().manual_seed(0))
print("entrenamiento:", len(entrenamiento), "· prueba:", len(prueba))  # Expectativa: 80 20
print("tipo:", type(prueba).__name__, "· primeros índices de prueba:", prueba.indices[:5])
comunes = set(entrenamiento.indices) & set(prueba.indices)
print("ejemplos en las dos partes:", len(comunes))  # Expectativa: 0
i = prueba.indices[0]
print("prueba[0] es puntos[i]:", torch.equal(prueba[0][0], puntos[i][0]))  # Expectativa: True

import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

# Quince plantillas de 5 × 5 píxeles, cinco por clase: la clase es el índice // 5.
identidad = torch.eye(5)  # unos en la diagonal, ceros fuera
# (5, 5, 1) por (5,), con broadcasting: (5, 5, 5). La plantilla r enciende la fila r.
horizontales = identidad.unsqueeze(2) * torch.ones(5)
verticales = horizontales.transpose(1, 2)  # filas por columnas: la c enciende la columna c
# roll desplaza las columnas k puestos: la que sale por la derecha entra por la izquierda.
diagonales = torch.stack([identidad.roll(k, dims=1) for k in range(5)])
plantillas = torch.cat([horizontales, verticales, diagonales])
nombres = ["horizontal", "vertical", "diagonal"]
print("plantillas:", tuple(plantillas.shape))  # Expectativa: (15, 5, 5)
print("una de cada clase:")
print(plantillas[[1, 6, 11]].int())

# 900 imágenes: una plantilla al azar con ruido normal de desviación típica 0,4.
generador = torch.Generator().manual_seed(0)
elegidas = torch.randint(0, 15, (900,), generator=generador)
imagenes = plantillas[elegidas] + 0.4 * torch.randn(900, 5, 5, generator=generador)
clases = elegidas // 5  # índices de clase: enteros de 64 bits, de forma (900,)
print("imágenes:", tuple(imagenes.shape), imagenes.dtype)
print("clases:", tuple(clases.shape), clases.dtype)
print("ejemplos por clase:", torch.bincount(clases).tolist())

todas = TensorDataset(imagenes, clases)
entrenamiento, prueba = random_split(todas, [600, 300], generator=generador)

import torch
import torch.nn.functional as F

# Una imagen de 5 × 5 hecha a mano (una L) y un núcleo de 3 × 3 que resta
# la columna izquierda de la derecha: responde a los bordes verticales.
imagen = torch.tensor(
    [
        [0.0, 1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 1.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0],
    ]
)
nucleo = torch.tensor([[-1.0, 0.0, 1.0], [-1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]])

# F.conv2d pide la entrada como (N, C, H, W) y el núcleo como (salidas, entradas, kH, kW).
salida = F.conv2d(imagen.reshape(1, 1, 5, 5), nucleo.reshape(1, 1, 3, 3))
print("forma de la salida:", tuple(salida.shape))  # Expectativa: (1, 1, 3, 3)
print(salida[0, 0])

# La misma cuenta a mano: en cada posición, el trozo de 3 × 3 por el núcleo, sumado.
a_mano = torch.zeros(3, 3)
for i in range(3):
    for j in range(3):
        a_mano[i, j] = (imagen[i : i + 3, j : j + 3] * nucleo).sum()
print("igual que a mano:", torch.equal(salida[0, 0], a_mano))  # Expectativa: True

# unfold pone cada trozo de 3 × 3 en una columna de 9 valores: 9 posiciones, 9 columnas.
columnas = F.unfold(imagen.reshape(1, 1, 5, 5), kernel_size=3)
print("trozos en columnas:", tuple(columnas.shape))  # Expectativa: (1, 9, 9)
producto = (nucleo.reshape(1, 9) @ columnas[0]).reshape(3, 3)
print("igual que con matrices:", torch.equal(salida[0, 0], producto))  # Expectativa: True

import torch
from torch import nn

entrada = torch.zeros(1, 1, 8, 8)  # una imagen de 8 × 8
print(" k  p  s   salida  fórmula")
coinciden = []
for k, p, s in [(3, 0, 1), (3, 1, 1), (5, 2, 1), (3, 1, 2), (3, 0, 2), (2, 0, 2), (5, 0, 3)]:
    capa = nn.Conv2d(1, 1, kernel_size=k, padding=p, stride=s)
    alto = capa(entrada).shape[2]
    formula = (8 + 2 * p - k) // s + 1  # // redondea hacia abajo
    print(f"{k:2} {p:2} {s:2} {alto:6} {formula:8}")
    coinciden.append(alto == formula)
print("la fórmula acierta siempre:", all(coinciden))  # Expectativa: True

# "same" calcula el relleno que conserva el tamaño, pero solo sin desplazamiento.
print("same:", tuple(nn.Conv2d(1, 1, kernel_size=3, padding="same")(entrada).shape))
try:
    nn.Conv2d(1, 1, kernel_size=3, stride=2, padding="same")
except ValueError as error:
    print("ValueError:", error)

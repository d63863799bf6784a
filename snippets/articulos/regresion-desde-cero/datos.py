import torch

generador = torch.Generator().manual_seed(0)  # generador propio: los mismos datos en cada ejecución
n = 100
x = torch.rand(n, generator=generador) * 4 - 2  # 100 puntos al azar entre −2 y 2
ruido = 0.5 * torch.randn(n, generator=generador)
w_real, b_real = 2.0, -1.0  # la recta que buscamos: y = 2x − 1
y = w_real * x + b_real + ruido
print("forma de x y de y:", tuple(x.shape), tuple(y.shape))
print("primeros x:", x[:3])
print("primeros y:", y[:3])

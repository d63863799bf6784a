import torch

torch.manual_seed(0)
a = torch.rand(2, 3)  # uniforme en [0, 1)
torch.manual_seed(0)
b = torch.rand(2, 3)  # la misma semilla: la misma secuencia
c = torch.rand(2, 3)  # la secuencia sigue: otros valores
print("misma semilla, mismos valores:", torch.equal(a, b))  # Expectativa: True
print("siguiente extracción, mismos valores:", torch.equal(b, c))  # Expectativa: False
print("todos en [0, 1):", bool(((a >= 0) & (a < 1)).all()))  # Expectativa: True
print("normal:", torch.randn(4).shape, "· enteros:", torch.randint(0, 10, (2, 2)).dtype)

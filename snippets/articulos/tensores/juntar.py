import torch

a = torch.zeros(2, 3)
b = torch.ones(2, 3)
print("cat, filas tras filas:", tuple(torch.cat([a, b]).shape))  # Expectativa: (4, 3)
print("cat, columnas tras columnas:", tuple(torch.cat([a, b], dim=1).shape))  # Expectativa: (2, 6)
print("stack, nueva delante:", tuple(torch.stack([a, b]).shape))  # Expectativa: (2, 2, 3)
print("stack, nueva detrás:", tuple(torch.stack([a, b], dim=2).shape))  # Expectativa: (2, 3, 2)
# Un lote a partir de ejemplos sueltos: stack añade la dimensión del lote.
ejemplos = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), torch.tensor([5.0, 6.0])]
print("lote:", torch.stack(ejemplos).tolist())

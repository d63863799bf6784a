import torch

t = torch.ones(3)
a = t.numpy()  # comparte memoria con t
t.mul_(5)
print("el arreglo ve el cambio:", a)  # Expectativa: [5, 5, 5]
print("tipo:", a.dtype)

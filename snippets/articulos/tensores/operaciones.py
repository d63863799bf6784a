import torch

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])  # (2, 3)
b = torch.tensor([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]])  # (2, 3)
print("a + b:", (a + b).tolist())  # elemento a elemento
print("a * b:", (a * b).tolist())  # también: no es el producto de matrices
print("a ** 2:", (a**2).tolist())

m = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (3, 2)
producto = a @ m  # producto de matrices: (2, 3) @ (3, 2) → (2, 2)
print("a @ m:", producto.tolist(), "· forma:", tuple(producto.shape))
print("igual que torch.matmul:", torch.equal(producto, torch.matmul(a, m)))  # Expectativa: True
v = torch.tensor([1.0, 1.0, 1.0])  # (3,)
print("a @ v, la suma de cada fila:", (a @ v).tolist())  # Expectativa: [6, 15]

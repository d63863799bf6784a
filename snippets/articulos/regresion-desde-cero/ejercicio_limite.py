import torch
from torch.autograd.functional import hessian

generador = torch.Generator().manual_seed(0)
x = torch.rand(100, generator=generador) * 4 - 2
y = 2 * x - 1 + 0.5 * torch.randn(100, generator=generador)


def perdida(theta):
    """El error cuadrático medio de la recta theta = [w, b]."""
    return ((theta[0] * x + theta[1] - y) ** 2).mean()


H = hessian(perdida, torch.zeros(2))  # las segundas derivadas: una matriz de 2 × 2
A = torch.stack([x, torch.ones_like(x)], dim=1)
print("hessiana:", H)
print("es 2·AᵀA/n:", torch.allclose(H, 2 * A.T @ A / len(x)))  # Expectativa: True
lambda_max = torch.linalg.eigvalsh(H).max().item()
limite = 2 / lambda_max
print(f"límite: 2 / {lambda_max:.4f} = {limite:.4f}")

for factor in (0.99, 1.01):
    theta = torch.zeros(2, requires_grad=True)
    for _ in range(300):
        perdida(theta).backward()
        with torch.no_grad():
            theta -= factor * limite * theta.grad
        theta.grad = None
    print(f"lr = {factor} · límite: pérdida tras 300 épocas {perdida(theta).item():.4f}")

# Con la suma en lugar de la media, la hessiana es n veces mayor y el límite, n veces menor
H_suma = hessian(lambda theta: perdida(theta) * len(x), torch.zeros(2))
print(f"con la suma: límite {2 / torch.linalg.eigvalsh(H_suma).max().item():.4f}")

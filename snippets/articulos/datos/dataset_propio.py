from torch.utils.data import Dataset


class PuntosDeUnaRecta(Dataset):
    """Puntos de y = 2x + 1 con ruido; cada ejemplo se fabrica cuando se pide."""

    def __init__(self, n, semilla=0):
        self.n = n
        self.semilla = semilla

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(f"índice {i} fuera de 0…{self.n - 1}")
        # Un generador por ejemplo: el mismo índice da siempre el mismo punto.
        generador = torch.Generator().manual_seed(self.semilla * self.n + i)
        x = 4 * torch.rand(1, generator=generador) - 2  # en [-2, 2)
        y = 2 * x + 1 + 0.1 * torch.randn(1, generator=generador)
        return x, y


puntos = PuntosDeUnaRecta(100)
print("ejemplos:", len(puntos))  # Expectativa: 100
x5, y5 = puntos[5]
print(f"ejemplo 5: x = {x5.item():.4f}, y = {y5.item():.4f}")
print("se repite:", torch.equal(puntos[5][1], y5))  # Expectativa: True

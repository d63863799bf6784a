import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

generador = torch.Generator().manual_seed(0)
escala, centro = torch.tensor([10.0, 0.01]), torch.tensor([50.0, 0.1])
x = torch.randn(400, 2, generator=generador) * escala + centro
y = x @ torch.tensor([[0.1], [-300.0]]) + 2 + 0.1 * torch.randn(400, 1, generator=generador)


def perdida_tras_entrenar(entradas):
    """Diez épocas de SGD con lr = 0,1; devuelve la pérdida final sobre todos los datos."""
    torch.manual_seed(0)
    modelo = nn.Linear(2, 1)
    optimizador = torch.optim.SGD(modelo.parameters(), lr=0.1)
    barajador = torch.Generator().manual_seed(0)
    datos = TensorDataset(entradas, y)
    cargador = DataLoader(datos, batch_size=32, shuffle=True, generator=barajador)
    for _ in range(10):
        for lote_x, lote_y in cargador:
            optimizador.zero_grad()
            nn.functional.mse_loss(modelo(lote_x), lote_y).backward()
            optimizador.step()
    with torch.no_grad():
        return nn.functional.mse_loss(modelo(entradas), y).item()


print(f"sin normalizar: {perdida_tras_entrenar(x):.4f}")
normalizadas = (x - x.mean(dim=0)) / x.std(dim=0)
print(f"normalizadas: {perdida_tras_entrenar(normalizadas):.4f}")

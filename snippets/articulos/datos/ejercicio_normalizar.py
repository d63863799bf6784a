import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

generador = torch.Generator().manual_seed(0)
escala, centro = torch.tensor([10.0, 0.01]), torch.tensor([50.0, 0.1])
x = torch.randn(400, 2, generator=generador) * escala + centro
y = x @ torch.tensor([[0.1], [-300.0]]) + 2 + 0.1 * torch.randn(400, 1, generator=generador)


def entrenar(entradas):
    """Diez épocas de SGD con lr = 0,1 en lotes de 32.

    Devuelve la pérdida final sobre todos los datos y, del primer paso, cuántas veces es mayor
    el gradiente del peso de la primera característica que el de la segunda.
    """
    torch.manual_seed(0)
    modelo = nn.Linear(2, 1)
    optimizador = torch.optim.SGD(modelo.parameters(), lr=0.1)
    barajador = torch.Generator().manual_seed(0)
    datos = TensorDataset(entradas, y)
    cargador = DataLoader(datos, batch_size=32, shuffle=True, generator=barajador)
    razon = None
    for _ in range(10):
        for lote_x, lote_y in cargador:
            optimizador.zero_grad()
            nn.functional.mse_loss(modelo(lote_x), lote_y).backward()
            if razon is None:  # solo el primer paso
                gradiente = modelo.weight.grad[0]
                razon = (gradiente[0] / gradiente[1]).abs().item()
            optimizador.step()
    with torch.no_grad():
        return nn.functional.mse_loss(modelo(entradas), y).item(), razon


perdida, razon = entrenar(x)
print(f"sin normalizar: pérdida {perdida:.4f} · primer paso, gradiente de w₁ / de w₂: {razon:.1f}")
normalizadas = (x - x.mean(dim=0)) / x.std(dim=0)
perdida, razon = entrenar(normalizadas)
print(f"normalizadas: pérdida {perdida:.4f} · primer paso, gradiente de w₁ / de w₂: {razon:.1f}")

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, random_split


class Normalizado(Dataset):
    """Pares (x, y) en memoria; cada entrada, normalizada con la media y la desviación típica."""

    def __init__(self, x, y, media, desviacion):
        self.x, self.y = x, y
        self.media, self.desviacion = media, desviacion

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return (self.x[i] - self.media) / self.desviacion, self.y[i]


# Datos sintéticos con escalas muy distintas: y = 0,1·x₁ − 300·x₂ + 2, con ruido.
generador = torch.Generator().manual_seed(0)
escala, centro = torch.tensor([10.0, 0.01]), torch.tensor([50.0, 0.1])
x = torch.randn(500, 2, generator=generador) * escala + centro
y = x @ torch.tensor([[0.1], [-300.0]]) + 2 + 0.1 * torch.randn(500, 1, generator=generador)

# Separar primero y normalizar con las estadísticas del entrenamiento: la prueba no se mira.
parte_ent, parte_pru = random_split(range(500), [0.8, 0.2], generator=generador)
x_ent, y_ent = x[parte_ent.indices], y[parte_ent.indices]
media, desviacion = x_ent.mean(dim=0), x_ent.std(dim=0)
entrenamiento = Normalizado(x_ent, y_ent, media, desviacion)
prueba = Normalizado(x[parte_pru.indices], y[parte_pru.indices], media, desviacion)

if torch.accelerator.is_available():
    dispositivo = torch.accelerator.current_accelerator()
else:
    dispositivo = torch.device("cpu")

torch.manual_seed(0)
modelo = nn.Linear(2, 1).to(dispositivo)
criterio = nn.MSELoss()
optimizador = torch.optim.SGD(modelo.parameters(), lr=0.1)
cargador = DataLoader(entrenamiento, batch_size=32, shuffle=True, generator=generador)

for _ in range(10):  # épocas
    modelo.train()
    for x_lote, y_lote in cargador:
        entradas, objetivos = x_lote.to(dispositivo), y_lote.to(dispositivo)
        optimizador.zero_grad()
        criterio(modelo(entradas), objetivos).backward()
        optimizador.step()

modelo.eval()
with torch.no_grad():
    entradas, objetivos = next(iter(DataLoader(prueba, batch_size=len(prueba))))  # todo de una vez
    entradas, objetivos = entradas.to(dispositivo), objetivos.to(dispositivo)
    perdida = criterio(modelo(entradas), objetivos).item()
    referencia = criterio(torch.full_like(objetivos, y_ent.mean().item()), objetivos).item()
print(f"pérdida de prueba: {perdida:.4f} · predecir la media: {referencia:.4f}")
print("mejor que la media:", perdida < referencia)  # Expectativa: True

import tempfile
from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split


def fabricar(n, generador, ruido=0.4):
    """Imágenes de 5 × 5 con una barra horizontal (clase 0), vertical (1) o diagonal (2)."""
    identidad = torch.eye(5)
    horizontales = identidad.unsqueeze(2) * torch.ones(5)
    diagonales = torch.stack([identidad.roll(k, dims=1) for k in range(5)])
    plantillas = torch.cat([horizontales, horizontales.transpose(1, 2), diagonales])
    elegidas = torch.randint(0, 15, (n,), generator=generador)
    imagenes = plantillas[elegidas] + ruido * torch.randn(n, 5, 5, generator=generador)
    return TensorDataset(imagenes, elegidas // 5)


def crear_modelo():
    return nn.Sequential(nn.Flatten(), nn.Linear(25, 32), nn.ReLU(), nn.Linear(32, 3))


if torch.accelerator.is_available():
    dispositivo = torch.accelerator.current_accelerator()
else:
    dispositivo = torch.device("cpu")

generador = torch.Generator().manual_seed(0)
entrenamiento, prueba = random_split(fabricar(900, generador), [600, 300], generator=generador)
cargador = DataLoader(entrenamiento, batch_size=64, shuffle=True, generator=generador)

torch.manual_seed(0)
modelo = crear_modelo().to(dispositivo)
criterio = nn.CrossEntropyLoss()  # recibe logits e índices de clase
optimizador = torch.optim.Adam(modelo.parameters(), lr=0.01)
for _ in range(10):  # épocas
    modelo.train()
    for x_lote, y_lote in cargador:
        imagenes, clases = x_lote.to(dispositivo), y_lote.to(dispositivo)
        optimizador.zero_grad()
        criterio(modelo(imagenes), clases).backward()
        optimizador.step()

# Guardar el diccionario de estado y cargarlo donde se vaya a usar (map_location).
with tempfile.TemporaryDirectory() as carpeta:
    ruta = Path(carpeta) / "clasificador.pt"
    torch.save(modelo.state_dict(), ruta)
    recuperado = crear_modelo().to(dispositivo)
    recuperado.load_state_dict(torch.load(ruta, map_location=dispositivo))
recuperado.eval()

with torch.inference_mode():
    imagenes, clases = next(iter(DataLoader(prueba, batch_size=len(prueba))))
    predichas = recuperado(imagenes.to(dispositivo)).argmax(dim=1).cpu()
exactitud = (predichas == clases).float().mean().item()
print(f"exactitud en prueba: {exactitud:.4f}")
print("mejor que adivinar (1/3):", exactitud > 1 / 3)  # Expectativa: True

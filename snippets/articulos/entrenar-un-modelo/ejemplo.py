import os
import tempfile
from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # solo torch anteriores, en GPU
torch.use_deterministic_algorithms(True)
torch.manual_seed(0)

if torch.accelerator.is_available():
    dispositivo = torch.accelerator.current_accelerator()
else:
    dispositivo = torch.device("cpu")

# Datos sintéticos: y = 3·x₁ − 2·x₂ + 1, con ruido.
x = torch.randn(256, 2)
y = x @ torch.tensor([[3.0], [-2.0]]) + 1 + 0.1 * torch.randn(256, 1)
entrenamiento = TensorDataset(x[:200], y[:200])
x_prueba, y_prueba = x[200:].to(dispositivo), y[200:].to(dispositivo)
barajador = torch.Generator().manual_seed(0)
cargador = DataLoader(entrenamiento, batch_size=20, shuffle=True, generator=barajador)

modelo = nn.Linear(2, 1).to(dispositivo)
criterio = nn.MSELoss()
optimizador = torch.optim.SGD(modelo.parameters(), lr=0.1)

for _ in range(20):  # épocas
    modelo.train()
    for x_lote, y_lote in cargador:  # lotes de 20, en otro orden cada época
        entradas, objetivos = x_lote.to(dispositivo), y_lote.to(dispositivo)
        optimizador.zero_grad()
        perdida = criterio(modelo(entradas), objetivos)
        perdida.backward()
        optimizador.step()

modelo.eval()
with torch.no_grad():
    print(f"pérdida de prueba: {criterio(modelo(x_prueba), y_prueba).item():.4f}")
pesos = [round(w, 1) for w in modelo.weight.flatten().tolist()]
print("pesos aprendidos:", pesos)  # Expectativa: [3, -2]
print("sesgo aprendido:", round(modelo.bias.item(), 1))  # Expectativa: 1

with tempfile.TemporaryDirectory() as carpeta:
    ruta = Path(carpeta) / "modelo.pt"
    torch.save(modelo.state_dict(), ruta)
    recuperado = nn.Linear(2, 1).to(dispositivo)
    recuperado.load_state_dict(torch.load(ruta, map_location=dispositivo))
print("recuperado igual:", torch.equal(recuperado.weight, modelo.weight))  # Expectativa: True

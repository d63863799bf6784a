import copy
import csv
import math
from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, random_split


class Digitos(Dataset):
    """Los dígitos de digitos.csv: 64 píxeles de 0 a 16 y la clase, de 0 a 9, por línea."""

    def __init__(self, ruta, transform=None):
        with Path(ruta).open(newline="") as archivo:
            tabla = torch.tensor([[int(v) for v in fila] for fila in csv.reader(archivo)])
        self.imagenes, self.clases = tabla[:, :64].float(), tabla[:, 64]
        self.transform = transform

    def __len__(self):
        return len(self.clases)

    def __getitem__(self, i):
        x = self.imagenes[i]
        return (self.transform(x) if self.transform else x), self.clases[i]


def medir(modelo, cargador, funcion_perdida):
    """Pérdida media y exactitud, en modo de evaluación y sin grafo."""
    modelo.eval()
    suma, aciertos, n = 0.0, 0, 0
    with torch.no_grad():
        for x, y in cargador:
            logits = modelo(x)
            suma += funcion_perdida(logits, y).item() * len(y)
            aciertos += (logits.argmax(dim=1) == y).sum().item()
            n += len(y)
    return suma / n, aciertos / n


torch.manual_seed(0)
conjunto = Digitos("digitos.csv")
entrenamiento, validacion, prueba = random_split(
    conjunto, [1257, 270, 270], generator=torch.Generator().manual_seed(0)
)
pixeles = conjunto.imagenes[entrenamiento.indices]  # estadísticas: solo de entrenamiento
media, desviacion = pixeles.mean(), pixeles.std()
# Una lambda basta con num_workers=0 (el valor por defecto). Para preparar los lotes en otros
# procesos, la transformación debe poder pasarse con pickle: una clase como Normalizar, de
# «Datos reales», escrita en un módulo (.py) que esos procesos puedan importar.
conjunto.transform = lambda x: (x - media) / desviacion

cargador = DataLoader(
    entrenamiento, batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0)
)
cargador_val = DataLoader(validacion, batch_size=270)
modelo = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10))
funcion_perdida = nn.CrossEntropyLoss()
optimizador = torch.optim.AdamW(modelo.parameters(), lr=0.01, weight_decay=0.01)
programador = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizador, factor=0.5, patience=2)

mejor_perdida, mejor_epoca, paciencia = math.inf, 0, 5
for epoca in range(1, 41):
    modelo.train()
    for x, y in cargador:
        optimizador.zero_grad()
        funcion_perdida(modelo(x), y).backward()
        optimizador.step()
    perdida_val, _ = medir(modelo, cargador_val, funcion_perdida)
    programador.step(perdida_val)
    if perdida_val < mejor_perdida:
        mejor_perdida, mejor_epoca = perdida_val, epoca
        mejor_estado = copy.deepcopy(modelo.state_dict())
    elif epoca - mejor_epoca == paciencia:
        break
print(f"se detiene en la época {epoca}; la mejor, la {mejor_epoca}: {mejor_perdida:.4f}")

modelo.load_state_dict(mejor_estado)
_, exactitud_val = medir(modelo, cargador_val, funcion_perdida)
cargador_pru = DataLoader(prueba, batch_size=270)
_, exactitud_pru = medir(modelo, cargador_pru, funcion_perdida)  # la prueba, una sola vez
print(f"exactitud: validación {exactitud_val:.4f}, prueba {exactitud_pru:.4f}")

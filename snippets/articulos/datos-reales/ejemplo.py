import csv
from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, random_split


class Digitos(Dataset):
    """Dígitos de un CSV: en cada línea, 64 píxeles de 0 a 16 y la clase."""

    def __init__(self, ruta, transform=None, target_transform=None):
        with Path(ruta).open(newline="") as archivo:
            filas = [[int(v) for v in linea] for linea in csv.reader(archivo)]
        tabla = torch.tensor(filas)
        self.imagenes = tabla[:, :64].to(torch.float32)  # (N, 64), float32
        self.clases = tabla[:, 64]  # (N,), int64
        self.transform, self.target_transform = transform, target_transform

    def __len__(self):
        return len(self.clases)

    def __getitem__(self, i):
        imagen, clase = self.imagenes[i], self.clases[i]
        if self.transform is not None:
            imagen = self.transform(imagen)
        if self.target_transform is not None:
            clase = self.target_transform(clase)
        return imagen, clase


class Normalizar:
    """Resta una media y divide entre una desviación típica fijadas al crearla."""

    def __init__(self, media, desviacion):
        self.media, self.desviacion = media, desviacion

    def __call__(self, imagen):
        return (imagen - self.media) / self.desviacion


def exactitud(modelo, conjunto, dispositivo):
    """Fracción de ejemplos de `conjunto` que el modelo clasifica bien."""
    modelo.eval()
    aciertos = 0
    with torch.inference_mode():
        for x_lote, y_lote in DataLoader(conjunto, batch_size=256):
            predichas = modelo(x_lote.to(dispositivo)).argmax(dim=1)
            aciertos += (predichas == y_lote.to(dispositivo)).sum().item()
    return aciertos / len(conjunto)


# El archivo, junto a este programa; separar antes de calcular ninguna estadística.
digitos = Digitos("digitos.csv")
separador = torch.Generator().manual_seed(0)
entrenamiento, validacion, prueba = random_split(digitos, [1257, 270, 270], generator=separador)
pixeles_ent = digitos.imagenes[entrenamiento.indices]
# Estadísticas del entrenamiento; la transformación vale para las tres partes.
digitos.transform = Normalizar(pixeles_ent.mean(), pixeles_ent.std())

if torch.accelerator.is_available():
    dispositivo = torch.accelerator.current_accelerator()
else:
    dispositivo = torch.device("cpu")

torch.manual_seed(0)
modelo = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10)).to(dispositivo)
criterio = nn.CrossEntropyLoss()
optimizador = torch.optim.Adam(modelo.parameters(), lr=0.01)
barajador = torch.Generator().manual_seed(0)
cargador = DataLoader(entrenamiento, batch_size=64, shuffle=True, generator=barajador)

for _ in range(10):  # épocas
    modelo.train()
    for x_lote, y_lote in cargador:
        entradas, objetivos = x_lote.to(dispositivo), y_lote.to(dispositivo)
        optimizador.zero_grad()
        criterio(modelo(entradas), objetivos).backward()
        optimizador.step()

# La validación sirve para decidir; la prueba se mide una vez, al final.
exactitud_val = exactitud(modelo, validacion, dispositivo)
print(f"exactitud en validación: {exactitud_val:.4f}")
print("más del 95 %:", exactitud_val > 0.95)  # Expectativa: True

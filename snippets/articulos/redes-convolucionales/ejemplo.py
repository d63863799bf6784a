import copy
import csv
from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, random_split


class Digitos(Dataset):
    """Imágenes (1, 8, 8) y dígitos de un CSV con 64 píxeles y la clase por línea."""

    def __init__(self, ruta, transform=None):
        with Path(ruta).open(newline="") as archivo:
            tabla = torch.tensor([[int(v) for v in fila] for fila in csv.reader(archivo)])
        self.imagenes = tabla[:, :64].reshape(-1, 1, 8, 8).float()
        self.clases = tabla[:, 64]
        self.transform = transform

    def __len__(self):
        return len(self.clases)

    def __getitem__(self, i):
        imagen = self.imagenes[i]
        return (self.transform(imagen) if self.transform else imagen), self.clases[i]


def crear_red():
    return nn.Sequential(
        nn.Conv2d(1, 8, kernel_size=3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(8, 16, kernel_size=3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(16 * 2 * 2, 10),
    )


def exactitud(modelo, datos):
    modelo.eval()
    with torch.inference_mode():
        imagenes, clases = next(iter(DataLoader(datos, batch_size=len(datos))))
        return (modelo(imagenes).argmax(dim=1) == clases).float().mean().item()


conjunto = Digitos("digitos.csv")
datos_ent, datos_val, datos_pru = random_split(
    conjunto, [1257, 270, 270], generator=torch.Generator().manual_seed(0)
)
pixeles = conjunto.imagenes[datos_ent.indices]  # estadísticas solo de entrenamiento
media_ent, desviacion_ent = pixeles.mean(), pixeles.std()
# Una lambda basta con num_workers=0 (el valor por defecto). Para preparar los lotes en otros
# procesos, la transformación debe poder pasarse con pickle: una clase como Normalizar, de
# «Datos reales», escrita en un módulo (.py) que esos procesos puedan importar.
conjunto.transform = lambda imagen: (imagen - media_ent) / desviacion_ent

torch.manual_seed(0)
modelo = crear_red()
optimizador = torch.optim.Adam(modelo.parameters(), lr=0.01)
criterio = nn.CrossEntropyLoss()
barajador = torch.Generator().manual_seed(0)
cargador = DataLoader(datos_ent, batch_size=64, shuffle=True, generator=barajador)

mejor, mejor_epoca, mejor_estado = -1.0, 0, None
for epoca in range(1, 16):
    modelo.train()
    for imagenes, clases in cargador:
        optimizador.zero_grad()
        criterio(modelo(imagenes), clases).backward()
        optimizador.step()
    acierto = exactitud(modelo, datos_val)
    if acierto > mejor:
        mejor, mejor_epoca, mejor_estado = acierto, epoca, copy.deepcopy(modelo.state_dict())

modelo.load_state_dict(mejor_estado)
print(f"mejor época: {mejor_epoca}, exactitud de validación {mejor:.4f}")
print(f"exactitud en prueba: {exactitud(modelo, datos_pru):.4f}")

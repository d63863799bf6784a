import torch
from torch import nn


class Regresor(nn.Module):
    """Normaliza la entrada, una capa oculta con ReLU y una salida."""

    def __init__(self, entradas, ocultas):
        super().__init__()  # prepara los registros de submódulos, parámetros y búferes
        self.oculta = nn.Linear(entradas, ocultas)
        self.activacion = nn.ReLU()
        self.salida = nn.Linear(ocultas, 1)
        # Estado que no se entrena: la media y la escala de los datos.
        self.register_buffer("media", torch.zeros(entradas))
        self.register_buffer("escala", torch.ones(entradas))

    def forward(self, x):
        x = (x - self.media) / self.escala
        return self.salida(self.activacion(self.oculta(x)))


torch.manual_seed(0)
modelo = Regresor(entradas=4, ocultas=8)
print(modelo)
x = torch.randn(5, 4)
print("salida:", tuple(modelo(x).shape))  # Expectativa: (5, 1)

import torch
from torch import nn


class Contador(nn.Module):
    """Devuelve la entrada tal cual y cuenta cuántas veces se ha llamado."""

    def __init__(self):
        super().__init__()
        self.register_buffer("llamadas", torch.zeros((), dtype=torch.long), persistent=False)

    def forward(self, x):
        self.llamadas += 1  # in situ: el búfer no pide gradiente
        return x


contador = Contador()
for _ in range(3):
    contador(torch.ones(2))
print("llamadas:", contador.llamadas.item())  # Expectativa: 3
print("búferes:", [nombre for nombre, _ in contador.named_buffers()])
print("en el state_dict:", list(contador.state_dict()))
print("parámetros:", list(contador.parameters()))

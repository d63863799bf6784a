import torch
from torch import nn


class Clasificador(nn.Module):
    """Dos capas con dropout entre ellas; devuelve una puntuación por clase."""

    def __init__(self, entradas, ocultas, clases):
        super().__init__()
        self.capas = nn.Sequential(
            nn.Linear(entradas, ocultas),
            nn.ReLU(),
            nn.Dropout(p=0.2),
            nn.Linear(ocultas, clases),
        )

    def forward(self, x):
        return self.capas(x)


torch.manual_seed(0)
modelo = Clasificador(entradas=10, ocultas=32, clases=3)
print("parámetros:", sum(p.numel() for p in modelo.parameters()))  # Expectativa: 451

# Guardar y recuperar el estado en memoria (en disco, con torch.save: ver «Entrenar un modelo»).
copia = Clasificador(entradas=10, ocultas=32, clases=3)
copia.load_state_dict(modelo.state_dict())

# Predecir: modo de evaluación (sin dropout) y sin grafo.
modelo.eval()
copia.eval()
lote = torch.randn(4, 10)
with torch.inference_mode():
    clases = modelo(lote).argmax(dim=1)
    iguales = torch.equal(modelo(lote), copia(lote))
print("clases:", tuple(clases.shape), "· la copia predice igual:", iguales)

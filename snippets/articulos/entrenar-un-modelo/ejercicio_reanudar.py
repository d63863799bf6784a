import tempfile
from pathlib import Path

import torch
from torch import nn

torch.manual_seed(0)
x, y = torch.randn(64, 2), torch.randn(64, 1)


def nuevo():
    """Un modelo y su optimizador, siempre con los mismos pesos iniciales."""
    torch.manual_seed(0)
    modelo = nn.Linear(2, 1)
    return modelo, torch.optim.Adam(modelo.parameters(), lr=0.1)


def pasos(modelo, optimizador, cuantos):
    for _ in range(cuantos):
        optimizador.zero_grad()
        nn.functional.mse_loss(modelo(x), y).backward()
        optimizador.step()


def iguales(a, b):
    return all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters(), strict=True))


seguido, optimizador_seguido = nuevo()
pasos(seguido, optimizador_seguido, 10)  # diez pasos sin parar

modelo, optimizador = nuevo()
pasos(modelo, optimizador, 5)  # cinco pasos y un punto de control
with tempfile.TemporaryDirectory() as carpeta:
    ruta = Path(carpeta) / "punto.pt"
    torch.save({"modelo": modelo.state_dict(), "optimizador": optimizador.state_dict()}, ruta)
    punto = torch.load(ruta)

reanudado, optimizador_reanudado = nuevo()
reanudado.load_state_dict(punto["modelo"])
optimizador_reanudado.load_state_dict(punto["optimizador"])
pasos(reanudado, optimizador_reanudado, 5)

solo_pesos, optimizador_nuevo = nuevo()
solo_pesos.load_state_dict(punto["modelo"])  # Adam empieza sin sus medias
pasos(solo_pesos, optimizador_nuevo, 5)

print("con el estado del optimizador, igual:", iguales(reanudado, seguido))  # Expectativa: True
print("solo con los pesos, igual:", iguales(solo_pesos, seguido))  # Expectativa: False

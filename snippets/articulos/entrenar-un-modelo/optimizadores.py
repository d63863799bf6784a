import torch
from torch import nn

opciones = {
    "SGD": lambda p: torch.optim.SGD(p, lr=0.1),
    "SGD con momento": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
    "Adam": lambda p: torch.optim.Adam(p, lr=0.01),
}
for nombre, crear in opciones.items():
    capa = nn.Linear(2, 1)
    optimizador = crear(capa.parameters())
    capa(torch.ones(1, 2)).sum().backward()
    optimizador.step()
    estado = optimizador.state_dict()["state"].get(0, {})  # el del primer parámetro
    print(f"{nombre}: {sorted(estado) or 'ningún estado'}")

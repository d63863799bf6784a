import copy

import torch
from torch import nn

modelo = nn.Linear(2, 1)
optimizador = torch.optim.Adam(modelo.parameters(), lr=0.1)
modelo(torch.ones(4, 2)).sum().backward()
optimizador.step()

# Guardar con clone(): un tensor nuevo por nombre.
clonado = {nombre: t.clone() for nombre, t in modelo.state_dict().items()}
antes = modelo.weight[0, 0].item()
with torch.no_grad():
    modelo.weight.add_(1.0)  # el modelo cambia después de guardar
print(f"modelo: {antes:.4f} → {modelo.weight[0, 0].item():.4f}")
print(f"clonado: {clonado['weight'][0, 0].item():.4f}")

# El diccionario de estado del optimizador también guarda referencias.
estado = optimizador.state_dict()
media = optimizador.state[modelo.weight]["exp_avg"]
print("¿mismos datos sin copiar?", estado["state"][0]["exp_avg"].data_ptr() == media.data_ptr())
copia = copy.deepcopy(optimizador.state_dict())
print("¿mismos datos con deepcopy?", copia["state"][0]["exp_avg"].data_ptr() == media.data_ptr())

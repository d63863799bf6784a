import torch
from torch import nn

torch.manual_seed(0)
capa = nn.Linear(2, 1)
lote_a, lote_b = torch.randn(4, 2), torch.randn(4, 2)


def gradiente(lote):
    """El gradiente del peso con un solo lote, partiendo de cero."""
    capa.zero_grad()
    capa(lote).sum().backward()
    return capa.weight.grad.clone()


solo_a, solo_b = gradiente(lote_a), gradiente(lote_b)
capa.zero_grad()
capa(lote_a).sum().backward()
capa(lote_b).sum().backward()  # sin zero_grad entre los dos lotes
suma = solo_a + solo_b
print("el gradiente es la suma:", torch.allclose(capa.weight.grad, suma))  # Expectativa: True

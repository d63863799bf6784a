import torch
from torch import nn

torch.manual_seed(0)
capa = nn.Linear(3, 2)  # 3 características de entrada, 2 salidas
print(capa)
lote = torch.randn(4, 3)  # un lote de 4 ejemplos
salida = capa(lote)
print("entrada:", tuple(lote.shape), "→", tuple(salida.shape))  # Expectativa: (4, 3) → (4, 2)
a_mano = lote @ capa.weight.T + capa.bias
print("igual que x·Wᵀ + b:", torch.allclose(salida, a_mano))  # Expectativa: True

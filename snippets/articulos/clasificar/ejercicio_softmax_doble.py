import math

import torch
from torch import nn

criterio = nn.CrossEntropyLoss()
clase = torch.tensor([0])
segura = torch.tensor([[1.0, 0.0, 0.0]])  # probabilidades de una predicción perfecta
print(f"softmax antes de la pérdida: {criterio(segura, clase).item():.4f}")
print(f"log(1 + 2/e): {math.log(1 + 2 / math.e):.4f}")
logits_grandes = torch.tensor([[10.0, -10.0, -10.0]])  # logits de una predicción segura
print(f"con logits: {criterio(logits_grandes, clase).item():.4f}")

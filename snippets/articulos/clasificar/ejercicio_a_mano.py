import math

import torch
from torch import nn

logits = torch.tensor([[2.0, 0.0, -1.0]])  # un ejemplo, tres clases
clase = torch.tensor([0])
print(f"CrossEntropyLoss: {nn.CrossEntropyLoss()(logits, clase).item():.6f}")
a_mano = -math.log(math.exp(2) / (math.exp(2) + math.exp(0) + math.exp(-1)))
print(f"a mano: {a_mano:.6f}")
print(f"log(1 + e⁻² + e⁻³): {math.log(1 + math.exp(-2) + math.exp(-3)):.6f}")

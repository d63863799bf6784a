import torch
from torch.utils.data import random_split

partes = random_split(range(10), [0.33, 0.33, 0.34], generator=torch.Generator().manual_seed(0))
print("tamaños:", [len(parte) for parte in partes])  # Expectativa: [4, 3, 3]
print("índices:", [sorted(parte.indices) for parte in partes])

import torch
from torch import nn

capa = nn.Conv2d(1, 8, kernel_size=3)
lote = torch.zeros(64, 8, 8)  # 64 imágenes de 8 × 8 sin la dimensión del canal
capa(lote)  # lo lee como una sola imagen de 64 canales

from torch import nn

red = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
total = sum(p.numel() for p in red.parameters())
print("parámetros:", total)  # Expectativa: 49
red[0].requires_grad_(False)  # congela la primera capa
entrenables = sum(p.numel() for p in red.parameters() if p.requires_grad)
print("entrenables:", entrenables)  # Expectativa: 9

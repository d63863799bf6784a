import torch
from torch import nn

print("ReLU:", torch.relu(torch.tensor([-2.0, -0.5, 0.0, 1.5])).tolist())  # los negativos, a 0

torch.manual_seed(0)
primera, segunda = nn.Linear(3, 4), nn.Linear(4, 2)
x = torch.randn(5, 3)

# Dos capas lineales seguidas son una sola: W₂(W₁x + b₁) + b₂ = (W₂W₁)x + (W₂b₁ + b₂).
una = nn.Linear(3, 2)
with torch.no_grad():
    una.weight.copy_(segunda.weight @ primera.weight)
    una.bias.copy_(segunda.weight @ primera.bias + segunda.bias)
    sin_activacion = segunda(primera(x))
    con_relu = segunda(torch.relu(primera(x)))
    igual_sin = torch.allclose(sin_activacion, una(x), atol=1e-6)
    igual_con = torch.allclose(con_relu, una(x), atol=1e-6)
print("sin activación, una capa basta:", igual_sin)  # Expectativa: True
print("con ReLU entre medias, no:", igual_con)  # Expectativa: False

import torch
from torch import nn

torch.manual_seed(0)
capa = nn.Linear(2, 1)
optimizador = torch.optim.SGD(capa.parameters(), lr=0.1)
x, y = torch.randn(8, 2), torch.randn(8, 1)

optimizador.zero_grad()  # 1. ningún gradiente de pasos anteriores
perdida = nn.functional.mse_loss(capa(x), y)
perdida.backward()  # 2. retropropagación: deja el gradiente en .grad
antes = capa.weight.detach().clone()
optimizador.step()  # 3. mueve cada parámetro contra su gradiente
esperado = antes - 0.1 * capa.weight.grad
print("step restó lr · gradiente:", torch.allclose(capa.weight, esperado))  # Expectativa: True
optimizador.zero_grad()
print("tras zero_grad, el gradiente:", capa.weight.grad)  # Expectativa: None

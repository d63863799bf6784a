import torch
from torch import nn

torch.manual_seed(0)
apagado = nn.Dropout(p=0.5)
unos = torch.ones(1000)
print("al crearlo, training:", apagado.training)
print("en entrenamiento, valores:", sorted(set(apagado(unos).tolist())))  # Expectativa: [0, 2]
apagado.eval()
print("en evaluación, la identidad:", torch.equal(apagado(unos), unos))  # Expectativa: True

red = nn.Sequential(nn.Linear(4, 4), nn.Dropout(p=0.5))
red.eval()  # llega a todos los submódulos
print("todos en evaluación:", not any(m.training for m in red.modules()))  # Expectativa: True
print("autograd sigue registrando:", red(torch.ones(1, 4)).requires_grad)  # Expectativa: True

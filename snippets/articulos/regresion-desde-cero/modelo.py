from torch import nn

modelo = nn.Linear(1, 1)  # una entrada, una salida: un peso y un sesgo
with torch.no_grad():
    modelo.weight.copy_(w)  # los valores aprendidos a mano
    modelo.bias.copy_(b)
for nombre, parametro in modelo.named_parameters():
    print(f"{nombre}: forma {tuple(parametro.shape)}, requires_grad={parametro.requires_grad}")
salida = modelo(x.unsqueeze(1))  # nn.Linear espera un ejemplo por fila: forma (100, 1)
print("mismas predicciones:", torch.allclose(salida.squeeze(1), w * x + b))  # Expectativa: True

from torch import nn

torch.manual_seed(0)
modelo = nn.Sequential(
    nn.Flatten(),  # (N, 5, 5) → (N, 25): una fila por imagen, la dimensión del lote intacta
    nn.Linear(25, 32),
    nn.ReLU(),
    nn.Linear(32, 3),  # una salida por clase: los logits
)
lote_x, lote_y = next(iter(DataLoader(entrenamiento, batch_size=4)))
print("lote:", tuple(lote_x.shape), "→ aplanado:", tuple(nn.Flatten()(lote_x).shape))
with torch.no_grad():  # solo mirar: sin grafo
    logits = modelo(lote_x)
    probabilidades = logits.softmax(dim=1)
print("logits:", logits)
print("probabilidades:", probabilidades)
print("cada fila suma 1:", torch.allclose(probabilidades.sum(dim=1), torch.ones(4)))
misma = torch.equal(logits.argmax(dim=1), probabilidades.argmax(dim=1))
print("la misma clase predicha:", misma)  # Expectativa: True

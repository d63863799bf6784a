import torch

peso = torch.ones(2, requires_grad=True)
with torch.no_grad():  # fuera del grafo: así actualiza un optimizador sus parámetros
    peso.sub_(0.25)
print(peso.tolist(), "· sigue pidiendo gradiente:", peso.requires_grad)

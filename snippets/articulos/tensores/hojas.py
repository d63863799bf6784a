import torch

datos = torch.ones(2)  # no sale de ninguna operación registrada
print("torch.ones(2) es una hoja:", datos.is_leaf)  # Expectativa: True
print("y no pide gradiente:", datos.requires_grad)  # Expectativa: False
peso = torch.ones(2, requires_grad=True)
print("con requires_grad=True, también:", peso.is_leaf)  # Expectativa: True
print("peso * 2, una operación registrada:", (peso * 2).is_leaf)  # Expectativa: False
print("datos * 2, que nada registra:", (datos * 2).is_leaf)  # Expectativa: True

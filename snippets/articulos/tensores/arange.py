import torch

# arange no recibe una forma: recibe un inicio, un final (sin incluirlo) y un incremento.
print(torch.arange(2, 3))  # Expectativa: [2]
print(torch.zeros(2, 3).shape)  # zeros sí recibe la forma
# Una tabla de 2 × 3 con números seguidos: primero el vector, después la forma.
print(torch.arange(6).reshape(2, 3))

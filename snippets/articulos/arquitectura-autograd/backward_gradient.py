import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.backward(gradient=torch.ones_like(y))  # un peso por cada valor de y
print("con unos:", x.grad.tolist())  # Expectativa: [2, 4, 6]
x.grad = None
y = x * x
y.backward(gradient=torch.tensor([1.0, 0.0, 0.0]))  # solo el primer valor
print("solo el primero:", x.grad.tolist())  # Expectativa: [2, 0, 0]

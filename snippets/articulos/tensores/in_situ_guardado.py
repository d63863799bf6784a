import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = x.exp()
print("ExpBackward0 guardó y:", torch.equal(y.grad_fn._saved_result, y))  # Expectativa: True
print("versión de y:", y._version)  # contador interno de modificaciones
y.add_(1)  # cambia el resultado que ExpBackward0 guardó
print("versión de y:", y._version)
try:
    y.sum().backward()
except RuntimeError as error:
    print("backward falla:", str(error).split(":")[0])

y = x.exp()
z = y + 1  # la misma cuenta sin in situ: y queda intacto
z.sum().backward()
print("gradiente:", [round(g, 4) for g in x.grad.tolist()])  # Expectativa: [1, 2.7183]

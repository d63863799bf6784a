import torch

# Descenso de gradiente sobre f(w) = (w - 3)²: un punto por paso, «paso k: pérdida v».
w = torch.tensor(0.0, requires_grad=True)
for paso in range(1, 9):
    perdida = (w - 3) ** 2
    perdida.backward()
    with torch.no_grad():
        w -= 0.2 * w.grad
    w.grad = None
    print(f"paso {paso}: pérdida {perdida.item():.4f}")

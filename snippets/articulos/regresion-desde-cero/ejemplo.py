import torch

# Datos: 100 puntos de la recta y = 2x − 1, con ruido
generador = torch.Generator().manual_seed(0)
x = torch.rand(100, generator=generador) * 4 - 2
y = 2 * x - 1 + 0.5 * torch.randn(100, generator=generador)

# Parámetros: dos hojas que piden gradiente, y el optimizador que las actualiza
w = torch.zeros((), requires_grad=True)
b = torch.zeros((), requires_grad=True)
optimizador = torch.optim.SGD([w, b], lr=0.1)

for epoca in range(1, 61):
    optimizador.zero_grad()
    perdida = ((w * x + b - y) ** 2).mean()  # error cuadrático medio
    perdida.backward()
    optimizador.step()
    if epoca % 20 == 0:
        print(f"época {epoca}: pérdida {perdida.item():.4f}")

# La solución exacta de mínimos cuadrados, para comparar
A = torch.stack([x, torch.ones_like(x)], dim=1)
w_exacta, b_exacta = torch.linalg.lstsq(A, y.unsqueeze(1)).solution.flatten().tolist()
print(f"aprendido: w = {w.item():.4f}, b = {b.item():.4f}")
print(f"exacto:    w = {w_exacta:.4f}, b = {b_exacta:.4f}")
cerca = abs(w.item() - w_exacta) < 1e-5 and abs(b.item() - b_exacta) < 1e-5
print("aprendido = exacto, a menos de 1e-5:", cerca)  # Expectativa: True

with torch.no_grad():  # predecir no necesita grafo
    print(f"predicción para x = 1,5: {(w * 1.5 + b).item():.4f}")

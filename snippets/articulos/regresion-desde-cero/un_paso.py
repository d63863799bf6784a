lr = 0.1  # tasa de aprendizaje: multiplica el gradiente en cada paso
with torch.no_grad():  # la actualización no es parte del modelo: no se registra
    w -= lr * w.grad  # in situ: w sigue siendo la misma hoja
    b -= lr * b.grad
w.grad = None  # el gradiente ya se usó: el paso siguiente empieza de cero
b.grad = None
print(f"w = {w.item():.4f} | b = {b.item():.4f}")
print("w sigue siendo una hoja:", w.is_leaf)  # Expectativa: True
print("y pide gradiente:", w.requires_grad)  # Expectativa: True
nueva = ((w * x + b - y) ** 2).mean()
print(f"pérdida: {perdida.item():.4f} → {nueva.item():.4f}")

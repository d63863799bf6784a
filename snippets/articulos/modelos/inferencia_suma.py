otra = nn.Linear(1, 1)
(otra(sin_grad) + inferencia).sum().backward()  # la suma no guarda sus entradas
print("con una suma, el gradiente llega:", otra.weight.grad is not None)  # Expectativa: True

w_ac = torch.zeros((), requires_grad=True)
b_ac = torch.zeros((), requires_grad=True)
perdidas_ac = []
for epoca in range(1, 31):
    perdida = ((w_ac * x + b_ac - y) ** 2).mean()
    perdida.backward()  # suma el gradiente nuevo al que ya había en .grad
    with torch.no_grad():
        w_ac -= 0.1 * w_ac.grad
        b_ac -= 0.1 * b_ac.grad
    # falta: w_ac.grad = None y b_ac.grad = None
    perdidas_ac.append(perdida.item())
    print(f"época {epoca}: pérdida {perdida.item():.4f}")
print(f"la menor: {min(perdidas_ac):.4f} (poniendo a cero: {min(perdidas):.4f})")

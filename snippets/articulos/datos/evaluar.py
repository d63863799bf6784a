modelo.eval()
suma = 0.0
with torch.no_grad():
    for x_lote, y_lote in DataLoader(prueba, batch_size=16):  # sin barajar: no hace falta
        entradas, objetivos = x_lote.to(dispositivo), y_lote.to(dispositivo)
        suma += criterio(modelo(entradas), objetivos).item() * len(entradas)
print(f"pérdida de prueba: {suma / len(prueba):.4f}")
print(f"peso aprendido: {modelo.weight.item():.3f} · sesgo: {modelo.bias.item():.3f}")
cerca = abs(modelo.weight.item() - 2) < 0.1 and abs(modelo.bias.item() - 1) < 0.1
print("cerca de y = 2x + 1:", cerca)  # Expectativa: True

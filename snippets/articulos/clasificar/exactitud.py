def aciertos(modelo, conjunto):
    """Cuántos ejemplos de `conjunto` reciben la clase correcta."""
    modelo.eval()  # modo de evaluación: capas como Dropout dejan de actuar
    total = 0
    with torch.inference_mode():  # sin grafo: solo se predice
        for x_lote, y_lote in DataLoader(conjunto, batch_size=100):
            predichas = modelo(x_lote.to(dispositivo)).argmax(dim=1)
            total += (predichas == y_lote.to(dispositivo)).sum().item()
    return total


for nombre, conjunto in [("entrenamiento", entrenamiento), ("prueba", prueba)]:
    print(f"{nombre}: {aciertos(modelo, conjunto)} de {len(conjunto)} aciertos")
exactitud = aciertos(modelo, prueba) / len(prueba)
print(f"exactitud en prueba: {exactitud:.4f}")  # Expectativa: 0.9733

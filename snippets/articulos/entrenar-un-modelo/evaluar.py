modelo.eval()
with torch.no_grad():
    vistos = criterio(modelo(x_entrenamiento.to(dispositivo)), y_entrenamiento.to(dispositivo))
    nuevos = criterio(modelo(x_prueba.to(dispositivo)), y_prueba.to(dispositivo))
    media = torch.full_like(y_prueba, y_entrenamiento.mean().item())  # predecir siempre la media
    referencia = criterio(media, y_prueba).item()
print(f"pérdida con los datos vistos: {vistos.item():.4f} · con los de prueba: {nuevos.item():.4f}")
print(f"distancia entre las dos: {nuevos.item() - vistos.item():.4f}")
print(f"predecir la media: {referencia:.4f}")
print("la pérdida de entrenamiento bajó:", perdidas[-1] < perdidas[0])  # Expectativa: True
print("el modelo mejora a la media:", nuevos.item() < referencia)  # Expectativa: True

modelo.eval()
with torch.no_grad():
    prueba = criterio(modelo(x_prueba), y_prueba).item()
    media = torch.full_like(y_prueba, y_entrenamiento.mean().item())  # predecir siempre la media
    referencia = criterio(media, y_prueba).item()
print(f"pérdida de prueba: {prueba:.4f} · predecir la media: {referencia:.4f}")
print("la pérdida de entrenamiento bajó:", perdidas[-1] < perdidas[0])  # Expectativa: True
print("el modelo mejora a la media:", prueba < referencia)  # Expectativa: True

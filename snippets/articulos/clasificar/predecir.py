# Tres imágenes nuevas, una de cada clase, con otro generador: el modelo no las ha visto.
nuevo = torch.Generator().manual_seed(1)
nuevas = plantillas[[2, 8, 13]] + 0.4 * torch.randn(3, 5, 5, generator=nuevo)
modelo.eval()
with torch.inference_mode():
    probabilidades = modelo(nuevas.to(dispositivo)).softmax(dim=1).cpu()
for fila, verdadera in zip(probabilidades, nombres, strict=True):
    clase = fila.argmax().item()
    print(f"predicha: {nombres[clase]} ({fila[clase].item():.3f}) · verdadera: {verdadera}")
print("tensor de inferencia:", probabilidades.is_inference())  # Expectativa: True

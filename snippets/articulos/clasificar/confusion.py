with torch.inference_mode():
    imagenes_prueba, clases_prueba = next(iter(DataLoader(prueba, batch_size=len(prueba))))
    predichas = modelo(imagenes_prueba.to(dispositivo)).argmax(dim=1).cpu()
# Fila: clase verdadera; columna: clase predicha. 3 · verdadera + predicha numera las 9 casillas.
confusion = torch.bincount(3 * clases_prueba + predichas, minlength=9).reshape(3, 3)
print("clases:", nombres)
print(confusion)
print("aciertos, la diagonal:", confusion.diagonal().sum().item())  # Expectativa: 292

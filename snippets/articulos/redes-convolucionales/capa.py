torch.manual_seed(0)
capa = nn.Conv2d(in_channels=1, out_channels=8, kernel_size=3)
print(capa)
print("weight:", tuple(capa.weight.shape))  # Expectativa: (8, 1, 3, 3)
print("bias:", tuple(capa.bias.shape))  # Expectativa: (8,)
print("parámetros:", sum(p.numel() for p in capa.parameters()))  # Expectativa: 80

imagenes, clases = next(iter(DataLoader(entrenamiento, batch_size=4)))
salida = capa(imagenes)
print("entrada:", tuple(imagenes.shape), "→ salida:", tuple(salida.shape))

# El canal 5 de la imagen 0 en la fila 2, columna 3: el trozo por su núcleo, más su sesgo.
a_mano = (capa.weight[5, 0] * imagenes[0, 0, 2:5, 3:6]).sum() + capa.bias[5]
print(f"capa: {salida[0, 5, 2, 3].item():.4f}, a mano: {a_mano.item():.4f}")
print("iguales (salvo redondeo):", torch.allclose(salida[0, 5, 2, 3], a_mano))  # Expectativa: True

torch.manual_seed(0)
segunda = nn.Conv2d(in_channels=8, out_channels=16, kernel_size=3)
print("weight:", tuple(segunda.weight.shape))  # Expectativa: (16, 8, 3, 3)
print("parámetros:", sum(p.numel() for p in segunda.parameters()))  # Expectativa: 1168

entrada = capa(imagenes)  # (4, 8, 6, 6): ocho canales
salida = segunda(entrada)
print("entrada:", tuple(entrada.shape), "→ salida:", tuple(salida.shape))

# El canal 0 de la salida suma los ocho canales de la entrada, cada uno con su núcleo.
trozo = entrada[0, :, 0:3, 0:3]  # (8, 3, 3): el mismo trozo en los ocho canales
a_mano = (segunda.weight[0] * trozo).sum() + segunda.bias[0]
print("iguales (salvo redondeo):", torch.allclose(salida[0, 0, 0, 0], a_mano))  # Expectativa: True

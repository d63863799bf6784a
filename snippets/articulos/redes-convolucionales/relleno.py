# El relleno son ceros alrededor de la imagen: un relleno de 1 es un borde de ceros.
x = imagen.reshape(1, 1, 5, 5)
w = nucleo.reshape(1, 1, 3, 3)
con_relleno = F.conv2d(x, w, padding=1)
print("con relleno:", tuple(con_relleno.shape))  # Expectativa: (1, 1, 5, 5)
bordeada = F.pad(x, (1, 1, 1, 1))  # un cero a cada lado, en ancho y en alto
print(tuple(bordeada.shape), torch.equal(con_relleno, F.conv2d(bordeada, w)))

# El desplazamiento salta posiciones: stride=2 calcula una de cada dos, en filas y columnas.
desplazada = F.conv2d(x, w, padding=1, stride=2)
print("con desplazamiento:", tuple(desplazada.shape))  # Expectativa: (1, 1, 3, 3)
print(torch.equal(desplazada, con_relleno[:, :, ::2, ::2]))  # Expectativa: True

from torch import nn

torch.manual_seed(0)  # los pesos iniciales salen del generador de la CPU
modelo = nn.Linear(1, 1).to(dispositivo)  # el modelo va al dispositivo una vez, antes del bucle
criterio = nn.MSELoss()  # la función de pérdida: el error cuadrático medio
optimizador = torch.optim.SGD(modelo.parameters(), lr=0.1)
barajador = torch.Generator().manual_seed(0)
cargador = DataLoader(entrenamiento, batch_size=16, shuffle=True, generator=barajador)

for epoca in range(1, 7):
    modelo.train()
    suma = 0.0
    for x_lote, y_lote in cargador:
        # Cada lote sale del DataLoader en la CPU: se mueve al dispositivo del modelo.
        entradas, objetivos = x_lote.to(dispositivo), y_lote.to(dispositivo)
        optimizador.zero_grad()
        perdida = criterio(modelo(entradas), objetivos)
        perdida.backward()
        optimizador.step()
        suma += perdida.item() * len(entradas)
    print(f"época {epoca}: pérdida {suma / len(entrenamiento):.4f}")

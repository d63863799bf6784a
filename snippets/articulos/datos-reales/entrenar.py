torch.manual_seed(0)
modelo = nn.Sequential(
    nn.Linear(64, 32),  # 64 píxeles de entrada
    nn.ReLU(),
    nn.Linear(32, 10),  # un logit por dígito
)
criterio = nn.CrossEntropyLoss()
optimizador = torch.optim.Adam(modelo.parameters(), lr=0.01)

for epoca in range(1, 11):
    modelo.train()
    suma = 0.0
    for x_lote, y_lote in cargador:
        optimizador.zero_grad()
        perdida = criterio(modelo(x_lote), y_lote)
        perdida.backward()
        optimizador.step()
        suma += perdida.item() * len(y_lote)
    print(f"época {epoca}: pérdida {suma / len(entrenamiento):.4f}")

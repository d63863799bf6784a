torch.manual_seed(0)
modelo = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))
criterio = nn.MSELoss()  # error cuadrático medio
optimizador = torch.optim.Adam(modelo.parameters(), lr=0.01)

with torch.no_grad():  # solo medir: sin grafo
    inicial = criterio(modelo(x_entrenamiento), y_entrenamiento).item()
print(f"pérdida inicial: {inicial:.4f}")

# El acelerador de la máquina si hay uno disponible; si no, la CPU.
if torch.accelerator.is_available():
    dispositivo = torch.accelerator.current_accelerator()
else:
    dispositivo = torch.device("cpu")

torch.manual_seed(0)
modelo = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))  # se crea en la CPU
modelo = modelo.to(dispositivo)  # y se mueve, con sus pesos, una sola vez
criterio = nn.MSELoss()  # error cuadrático medio
optimizador = torch.optim.Adam(modelo.parameters(), lr=0.01)

with torch.no_grad():  # solo medir: sin grafo
    entradas, objetivos = x_entrenamiento.to(dispositivo), y_entrenamiento.to(dispositivo)
    inicial = criterio(modelo(entradas), objetivos).item()
print("dispositivo:", dispositivo)
print(f"pérdida inicial: {inicial:.4f}")

from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
n = 512
x = torch.randn(n, 2)  # dos características por ejemplo
ruido = 0.1 * torch.randn(n, 1)
y = torch.sin(2 * x[:, :1]) + 0.5 * x[:, 1:] + ruido  # la regla que el modelo debe descubrir

# 400 ejemplos para entrenar y 112 que el modelo no verá hasta la evaluación.
x_entrenamiento, y_entrenamiento = x[:400], y[:400]
x_prueba, y_prueba = x[400:], y[400:]
entrenamiento = TensorDataset(x_entrenamiento, y_entrenamiento)
print("entrenamiento:", tuple(x_entrenamiento.shape), "→", tuple(y_entrenamiento.shape))
print("prueba:", tuple(x_prueba.shape), "→", tuple(y_prueba.shape))

import numpy as np
import torch

# El acelerador de la máquina si hay uno disponible; si no, la CPU.
if torch.accelerator.is_available():
    dispositivo = torch.accelerator.current_accelerator()
else:
    dispositivo = torch.device("cpu")

# De NumPy (float64) a un tensor float32 en el dispositivo elegido.
medidas = np.array([[170.0, 65.0], [180.0, 80.0], [160.0, 50.0], [175.0, 75.0]])
x = torch.from_numpy(medidas).to(dispositivo, torch.float32)
print("forma:", tuple(x.shape), "· tipo:", x.dtype)

# Broadcasting: (4, 2) con (2,): cada columna, con su media y su desviación típica.
normalizados = (x - x.mean(dim=0)) / x.std(dim=0)
medias = normalizados.mean(dim=0)
desviaciones = normalizados.std(dim=0)
# *_like: las referencias, en el mismo dispositivo que los resultados.
ceros, unos = torch.zeros_like(medias), torch.ones_like(desviaciones)
print("medias cero:", torch.allclose(medias, ceros, atol=1e-6))  # Expectativa: True
print("desviaciones uno:", torch.allclose(desviaciones, unos))  # Expectativa: True

# Una fila es una vista: escribir en ella cambia el tensor.
primera = normalizados[0]
primera.zero_()
print("primera fila tras zero_:", normalizados[0].tolist())  # Expectativa: [0, 0]

# A NumPy, siempre desde la CPU.
print(normalizados.cpu().numpy().round(2))

def contar(modelo):
    return sum(p.numel() for p in modelo.parameters())


for i, capa in enumerate(red):
    if contar(capa) > 0:  # ReLU, MaxPool2d y Flatten no tienen parámetros
        print(f"capa {i} ({type(capa).__name__}): {contar(capa)}")
print("red convolucional:", contar(red))  # Expectativa: 1898

# La red de «Clasificar», con 64 entradas y 10 clases.
densa = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
print("red densa:", contar(densa))  # Expectativa: 2410

# Una capa lineal con la entrada y la salida de la segunda convolución:
# de 8 × 4 × 4 = 128 valores a 16 × 4 × 4 = 256.
print("lineal equivalente:", contar(nn.Linear(8 * 4 * 4, 16 * 4 * 4)))  # Expectativa: 33024

print("hijos:", [nombre for nombre, _ in modelo.named_children()])
print("parámetros:", [nombre for nombre, _ in modelo.named_parameters()])
print("búferes:", [nombre for nombre, _ in modelo.named_buffers()])

secuencial = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
print("en un Sequential:", [nombre for nombre, _ in secuencial.named_parameters()])
print("su primera capa:", secuencial[0])

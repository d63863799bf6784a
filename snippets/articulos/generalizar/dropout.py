capa = nn.Dropout(p=0.5)
x = torch.ones(10)
capa.train()  # modo de entrenamiento: apaga elementos al azar
print("entrenamiento:", capa(x))
print("otra vez:", capa(x))
capa.eval()  # modo de evaluación: deja pasar todo, sin cambios
print("evaluación:", capa(x))

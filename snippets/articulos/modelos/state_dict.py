estado = modelo.state_dict()
for nombre, tensor in estado.items():
    print(f"{nombre}: {tuple(tensor.shape)}")

otro = Regresor(entradas=4, ocultas=8)  # pesos iniciales distintos
print(otro.load_state_dict(estado))
print("mismas salidas:", torch.equal(otro(x), modelo(x)))  # Expectativa: True

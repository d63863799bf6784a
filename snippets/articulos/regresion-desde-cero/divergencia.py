tasas = [0.1, 0.7, 0.8]
curvas = [entrenar_a_mano(lr=tasa, epocas=12)[2] for tasa in tasas]
print("época" + "".join(f"{'lr = ' + str(tasa):>12}" for tasa in tasas))
for epoca, fila in enumerate(zip(*curvas, strict=True), start=1):
    print(f"{epoca:5}" + "".join(f"{valor:12.4f}" for valor in fila))

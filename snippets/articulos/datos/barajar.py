numeros = TensorDataset(torch.arange(10))  # cada ejemplo es su propio número


def orden(cargador):
    """Los ejemplos de una época, lote a lote."""
    return [lote.tolist() for (lote,) in cargador]


def barajado(semilla):
    generador = torch.Generator().manual_seed(semilla)
    return DataLoader(numeros, batch_size=4, shuffle=True, generator=generador)


print("sin barajar:", orden(DataLoader(numeros, batch_size=4)))
cargador = barajado(0)
primera, segunda = orden(cargador), orden(cargador)
print("época 1:", primera)
print("época 2:", segunda)
vistos = sorted(numero for lote in primera for numero in lote)
print("cada número, una vez por época:", vistos == list(range(10)))
print("la misma semilla repite la época 1:", orden(barajado(0)) == primera)  # Expectativa: True

def siguiente_aleatorio(recorrer=None):
    """Fija la semilla global, empieza a recorrer un cargador (si se da) y saca un número.

    El número sale del generador global, el mismo que usa todo el programa.
    """
    torch.manual_seed(0)
    if recorrer is not None:
        next(iter(recorrer))
    return torch.rand(1).item()


referencia = siguiente_aleatorio()
sin_generador = DataLoader(numeros, batch_size=4)  # ni siquiera baraja
con_generador = DataLoader(numeros, batch_size=4, generator=torch.Generator().manual_seed(0))
print("sin generator, el mismo número:", siguiente_aleatorio(sin_generador) == referencia)
igual = siguiente_aleatorio(con_generador) == referencia
print("con generator, el mismo número:", igual)  # Expectativa: True

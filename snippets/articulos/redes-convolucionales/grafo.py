def describir_grafo(salida, hojas):
    """Imprime el grafo de autograd que termina en `salida`, un nodo por línea,
    desde la salida hacia las hojas (los parámetros)."""
    nombres = {id(tensor): nombre for nombre, tensor in hojas.items()}
    numeros, orden, pendientes = {}, [], [salida.grad_fn]
    while pendientes:
        nodo = pendientes.pop(0)
        if nodo is None or nodo in numeros:  # None: una entrada sin gradiente
            continue
        numeros[nodo] = len(orden)
        orden.append(nodo)
        pendientes += [siguiente for siguiente, _ in nodo.next_functions]
    for nodo in orden:
        texto = f"[{numeros[nodo]}] {nodo.name()}"
        if hasattr(nodo, "variable"):  # la hoja cuyo .grad llena backward()
            texto += f" (hoja {nombres.get(id(nodo.variable), '?')})"
        hijos = [f"[{numeros[s]}]" for s, _ in nodo.next_functions if s is not None]
        print(texto + (" → " + ", ".join(hijos) if hijos else ""))


imagenes, clases = next(iter(DataLoader(entrenamiento, batch_size=64)))  # un lote
perdida = nn.CrossEntropyLoss()(red(imagenes), clases)
describir_grafo(perdida, dict(red.named_parameters()))

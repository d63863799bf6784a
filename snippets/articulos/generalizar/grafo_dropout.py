def recorrer(salida):
    """Los nodos del grafo que termina en `salida`, en anchura, cada uno una sola vez."""
    orden, pendientes = [], [salida.grad_fn]
    while pendientes:
        nodo = pendientes.pop(0)
        if nodo is None or nodo in orden:  # None: una entrada sin gradiente
            continue
        orden.append(nodo)
        pendientes += [siguiente for siguiente, _ in nodo.next_functions]
    return orden


def describir_grafo(salida, hojas):
    """Imprime el grafo de autograd que termina en `salida`, un nodo por línea."""
    nombres = {id(tensor): nombre for nombre, tensor in hojas.items()}
    orden = recorrer(salida)
    for numero, nodo in enumerate(orden):
        texto = f"[{numero}] {nodo.name()}"
        if hasattr(nodo, "variable"):  # AccumulateGrad: escribe en el .grad de una hoja
            texto += f" (hoja {nombres.get(id(nodo.variable), '?')})"
        hijos = [f"[{orden.index(s)}]" for s, _ in nodo.next_functions if s is not None]
        print(texto + (" → " + ", ".join(hijos) if hijos else ""))


modelo = nuevo_modelo(128, p_dropout=0.5)
modelo.train()
describir_grafo(criterio(modelo(x_poco), y_poco), dict(modelo.named_parameters()))
modelo.eval()
en_evaluacion = [nodo.name() for nodo in recorrer(criterio(modelo(x_poco), y_poco))]
print("en modo de evaluación:", len(en_evaluacion), "nodos")
print("¿MulBackward0 en modo de evaluación?", "MulBackward0" in en_evaluacion)

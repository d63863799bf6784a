import inspect

import torch


def mostrar(objeto, tramos):
    """Imprime los tramos (desde, hasta) del código de `objeto` con su número de
    línea y su sangría originales; «…» marca las líneas omitidas."""
    lineas, primera = inspect.getsourcelines(objeto)
    siguiente = 0
    for desde, hasta in tramos:
        inicio = next(i for i in range(siguiente, len(lineas)) if desde in lineas[i])
        fin = next(i for i in range(inicio, len(lineas)) if hasta in lineas[i])
        if inicio > siguiente:
            print("     …")
        for i in range(inicio, fin + 1):
            print(f"{primera + i:4d} {lineas[i].rstrip()}")
        siguiente = fin + 1
    if siguiente < len(lineas):
        print("     …")


firma = inspect.signature(torch.autograd.backward)
print("retain_graph =", firma.parameters["retain_graph"].default)
print("create_graph =", firma.parameters["create_graph"].default)
mostrar(torch.autograd.backward, [("if retain_graph is None", "retain_graph = create_graph")])

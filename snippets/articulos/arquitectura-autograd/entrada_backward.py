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


# Se lee del torch instalado, no se copia: cómo normaliza los argumentos y
# con qué llama al motor.
mostrar(
    torch.autograd.backward,
    [
        ("if is_tensor_like(tensors)", "tensors = tuple(tensors)"),
        ("_tensor_or_tensors_to_tuple(", "_make_grads("),
        ("_engine_run_backward(", "    )"),
    ],
)

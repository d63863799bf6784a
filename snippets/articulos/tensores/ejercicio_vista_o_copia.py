import torch


def misma_memoria(a, b):
    """¿Usan a y b el mismo almacenamiento? (una vista puede empezar más adelante)"""
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


x = torch.arange(8).reshape(2, 4)
print("x[1]:", misma_memoria(x, x[1]))  # Expectativa: True
print("x[:, ::2]:", misma_memoria(x, x[:, ::2]))  # Expectativa: True
print("x.t():", misma_memoria(x, x.t()))  # Expectativa: True
print("x[[0, 1]]:", misma_memoria(x, x[[0, 1]]))  # Expectativa: False
print("x[x > 3]:", misma_memoria(x, x[x > 3]))  # Expectativa: False
